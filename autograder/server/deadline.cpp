// A deadline for each connection to the server (deadline.hpp).
#include "deadline.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <set>
#include <vector>

namespace service {
namespace {

// The open file descriptors of this process.
std::vector<int> open_fds() {
    std::vector<int> fds;
    DIR* dir = opendir("/proc/self/fd");
    if (!dir) return fds;
    const int own = dirfd(dir);
    while (const dirent* e = readdir(dir)) {
        char* end = nullptr;
        const long fd = std::strtol(e->d_name, &end, 10);
        if (end != e->d_name && *end == '\0' && fd != own) fds.push_back(static_cast<int>(fd));
    }
    closedir(dir);
    return fds;
}

// The local port of socket @p fd where it is a connected (not listening) TCP socket, else -1.
int connection_port(int fd) {
    int listening = 0;
    socklen_t n = sizeof listening;
    if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &n) != 0 || listening) return -1;
    sockaddr_storage local{};
    socklen_t size = sizeof local;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &size) != 0) return -1;
    if (local.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&local)->sin_port);
    if (local.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&local)->sin6_port);
    return -1;
}

}  // namespace

ConnectionDeadline::ConnectionDeadline(int port, std::chrono::milliseconds deadline, std::chrono::milliseconds every)
    : port_(port), deadline_(deadline), every_(every) {
    thread_ = std::thread([this] {
        std::unique_lock<std::mutex> lock(m_);
        while (!stopping_) {
            lock.unlock();
            sweep();
            lock.lock();
            wake_.wait_for(lock, every_, [this] { return stopping_; });
        }
    });
}

ConnectionDeadline::~ConnectionDeadline() {
    {
        std::lock_guard<std::mutex> lock(m_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

int ConnectionDeadline::sweep() {
    const auto now = std::chrono::steady_clock::now();
    std::set<std::pair<int, unsigned long>> open;
    int closed = 0;
    for (const int fd : open_fds()) {
        struct stat st{};
        if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode) || connection_port(fd) != port_) continue;
        const std::pair<int, unsigned long> key{fd, static_cast<unsigned long>(st.st_ino)};
        open.insert(key);
        const auto [it, fresh] = seen_.try_emplace(key, now);
        if (fresh || now - it->second < deadline_) continue;
        // Past the deadline. The number is looked at again right before: a socket closed and its number
        // taken by a new connection meanwhile has another inode, and is left alone.
        struct stat again{};
        if (fstat(fd, &again) == 0 && again.st_ino == st.st_ino && shutdown(fd, SHUT_RDWR) == 0) {
            ++closed;
            ++shut_down_;
        }
        it->second = now + std::chrono::hours(24 * 365);  // shut down once
    }
    for (auto it = seen_.begin(); it != seen_.end();) it = open.count(it->first) ? std::next(it) : seen_.erase(it);
    return closed;
}

}  // namespace service
