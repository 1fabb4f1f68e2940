/// @file launch_wire.hpp
/// @brief The messages between a lab's check program and its launch hosts (isolation.hpp): one JSON
/// object a message, framed by its length, over a Unix socket pair, with at most one file descriptor
/// (a shared allocation's handle) passed alongside.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>

namespace grading::wire {

/// @brief The other side closed the socket or broke the framing: for the check program, the launch host
/// ended (crashed, exited, or was killed).
struct ChannelClosed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// @brief Sends @p message on socket @p fd, with @p pass_fd (when >= 0) as ancillary data. Throws
/// ChannelClosed when the peer is gone.
void send(int fd, const nlohmann::json& message, int pass_fd = -1);

/// @brief A message received, and the file descriptor that came with it (-1 when none).
struct Received {
    nlohmann::json message;  ///< the JSON object sent
    int fd = -1;             ///< a descriptor passed with it, owned by the receiver
};

/// @brief Waits for the next message on socket @p fd. Throws ChannelClosed when the peer is gone or the
/// framing is broken (a message over 16 MiB, or not JSON).
Received receive(int fd);

}  // namespace grading::wire
