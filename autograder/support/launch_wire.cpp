// Framing of the launch hosts' messages (see launch_wire.hpp).
#include "launch_wire.hpp"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

namespace grading::wire {

namespace {
constexpr std::uint32_t kMaxMessage = 16u << 20;

void send_all(int fd, const char* data, std::size_t size, int pass_fd) {
    std::size_t sent = 0;
    while (sent < size) {
        iovec io{const_cast<char*>(data + sent), size - sent};
        msghdr msg{};
        msg.msg_iov = &io;
        msg.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
        if (pass_fd >= 0 && sent == 0) {
            std::memset(control, 0, sizeof control);
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
            cmsghdr* c = CMSG_FIRSTHDR(&msg);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
        }
        const ssize_t w = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) throw ChannelClosed("the launch channel is closed");
        sent += static_cast<std::size_t>(w);
    }
}

// Reads exactly @p size bytes; keeps the first descriptor passed with them in @p fd and closes every other
// one: a message may carry several in one SCM_RIGHTS record, and one left open would keep what it names
// (the sender's GPU context, a lock) alive in the receiver after the sender was ended.
void receive_all(int fd, char* data, std::size_t size, int* got_fd) {
    std::size_t read = 0;
    while (read < size) {
        iovec io{data + read, size - read};
        msghdr msg{};
        msg.msg_iov = &io;
        msg.msg_iovlen = 1;
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 16)];  // more than are ever sent: the kernel closes the rest
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        const ssize_t r = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw ChannelClosed("the launch channel is closed");
        for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (std::size_t k = 0; k < count; ++k) {
                int passed = -1;
                std::memcpy(&passed, CMSG_DATA(c) + k * sizeof(int), sizeof(int));
                if (got_fd && *got_fd < 0) *got_fd = passed;
                else ::close(passed);
            }
        }
        read += static_cast<std::size_t>(r);
    }
}
}  // namespace

void send(int fd, const nlohmann::json& message, int pass_fd) {
    const std::string body = message.dump();
    if (body.size() > kMaxMessage) throw std::length_error("launch message over 16 MiB");
    std::string framed(4, '\0');
    const auto n = static_cast<std::uint32_t>(body.size());
    for (int i = 0; i < 4; ++i) framed[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xFF);
    framed += body;
    send_all(fd, framed.data(), framed.size(), pass_fd);
}

Received receive(int fd) {
    Received r;
    unsigned char head[4];
    receive_all(fd, reinterpret_cast<char*>(head), 4, &r.fd);
    const std::uint32_t n = head[0] | (head[1] << 8) | (head[2] << 16) | (std::uint32_t(head[3]) << 24);
    if (n > kMaxMessage) {
        if (r.fd >= 0) ::close(r.fd);
        throw ChannelClosed("a launch message claims " + std::to_string(n) + " bytes");
    }
    std::vector<char> body(n);
    receive_all(fd, body.data(), n, &r.fd);
    r.message = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (r.message.is_discarded() || !r.message.is_object()) {
        if (r.fd >= 0) ::close(r.fd);
        throw ChannelClosed("a launch message is not a JSON object");
    }
    return r;
}

}  // namespace grading::wire
