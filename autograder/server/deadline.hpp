/// @file deadline.hpp
/// @brief A deadline for each connection to the server: however slowly its client sends, a connection
/// holds a request thread for at most that long.
///
/// cpp-httplib bounds each read of a request (set_read_timeout), not the whole of it: a client sending one
/// byte of its headers every few seconds keeps a thread for as long as it likes, and enough of them stop
/// the server (measured: 16 such connections took every thread of a pool of 16). The library gives no hook
/// on the connections it accepts, so a thread of this class looks at the process's open sockets instead
/// (/proc/self/fd): each socket accepted on the server's port is timed from when it was first seen, and
/// one open past the deadline is shut down (shutdown(2), both ways), which ends its reads and writes with
/// an error; its thread then closes it as after any broken connection.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace service {

/// @brief Shuts down every connection accepted on a port once it has been open longer than a deadline.
class ConnectionDeadline {
public:
    /// @param port the server's port: sockets whose local port it is, and which are not listening, are
    /// its connections
    /// @param deadline how long a connection may stay open; checked every @p every
    ConnectionDeadline(int port, std::chrono::milliseconds deadline,
                       std::chrono::milliseconds every = std::chrono::milliseconds(250));
    ~ConnectionDeadline();
    ConnectionDeadline(const ConnectionDeadline&) = delete;
    ConnectionDeadline& operator=(const ConnectionDeadline&) = delete;

    /// @brief Connections shut down so far.
    long long shut_down() const { return shut_down_.load(); }

    /// @brief One look at the open sockets (the thread calls it every @p every): returns how many it shut
    /// down.
    int sweep();

private:
    int port_;
    std::chrono::milliseconds deadline_, every_;
    // (fd, inode) of each connection seen, and when it was first seen; a number reused for another socket
    // has another inode, and so is a new connection.
    std::map<std::pair<int, unsigned long>, std::chrono::steady_clock::time_point> seen_;
    std::atomic<long long> shut_down_{0};
    std::mutex m_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace service
