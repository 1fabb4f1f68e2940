// The launch host's confinement (support/confinement.hpp), in a child process of the test: what the
// student's code in a confined host can and cannot do.
#include <doctest/doctest.h>

#include "confinement.hpp"
#include "launch_wire.hpp"

#include <fcntl.h>
#include <signal.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

namespace {

// Runs @p body in a confined child (allowed to exec only @p exec_path's own pointer) and returns its wait
// status; the body's exit code says which expectation failed.
int confined_child(const std::string& exec_path, const std::function<void()>& body, bool under_tool = false) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!grading::isolation::confine_launch_host(exec_path.c_str(), under_tool)) ::_exit(90);
        body();
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
}

}  // namespace

TEST_CASE("a confined launch host starts threads but no process, signals only itself, and dies with the check program") {
    const std::string shell = "/bin/sh";
    const int status = confined_child(shell, [] {
        errno = 0;
        if (::fork() != -1 || errno != EPERM) ::_exit(91);
        if (::setsid() != -1) ::_exit(92);
        if (::setpgid(0, 0) != -1) ::_exit(93);
        if (::kill(::getppid(), 0) != -1 || errno != EPERM) ::_exit(94);  // the check program: out of reach
        if (::kill(::getpid(), 0) != 0) ::_exit(95);                     // itself: fine
        int ran = 0;
        std::thread([&] { ran = 1; }).join();  // a thread: fine (clone with CLONE_THREAD)
        if (ran != 1) ::_exit(96);
        if (std::system("true") == 0) ::_exit(97);  // a shell needs a process
        // It dies with the check program: that cannot be taken away, while other prctl calls still work.
        errno = 0;
        if (::prctl(PR_SET_PDEATHSIG, 0) != -1 || errno != EPERM) ::_exit(98);
        int death = 0;
        if (::prctl(PR_GET_PDEATHSIG, &death) != 0) ::_exit(99);
        if (::prctl(PR_SET_NAME, "host") != 0) ::_exit(100);
    });
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a confined launch host cannot have the kernel signal another process through a descriptor") {
    // F_SETOWN (and its kin) name the process that gets SIGIO, or any signal F_SETSIG picks, SIGKILL
    // included, when a descriptor is ready: the kernel checks only that it is the same user's. Refused, in
    // fcntl and ioctl alike; the descriptor's other commands still work.
    const std::string shell = "/bin/sh";
    const int status = confined_child(shell, [] {
        int p[2];
        if (::pipe(p) != 0) ::_exit(91);
        const pid_t other = ::getppid();
        errno = 0;
        if (::fcntl(p[0], F_SETOWN, other) != -1 || errno != EPERM) ::_exit(92);
        f_owner_ex owner{F_OWNER_PID, other};
        if (::fcntl(p[0], F_SETOWN_EX, &owner) != -1) ::_exit(93);
        if (::fcntl(p[0], F_SETSIG, SIGKILL) != -1) ::_exit(94);
        if (::fcntl(p[0], F_NOTIFY, 0) != -1) ::_exit(95);
        int who = other;
        if (::ioctl(p[0], FIOSETOWN, &who) != -1 || errno != EPERM) ::_exit(96);
        if (::ioctl(p[0], SIOCSPGRP, &who) != -1) ::_exit(97);
        int on = 1;
        if (::ioctl(p[0], FIOASYNC, &on) != -1) ::_exit(98);
        // What a descriptor's user needs: still there.
        const int flags = ::fcntl(p[0], F_GETFL);
        if (flags < 0 || ::fcntl(p[0], F_SETFL, flags | O_NONBLOCK) != 0) ::_exit(99);
        if (::fcntl(p[0], F_GETOWN) != 0) ::_exit(100);  // never set
        int pending = -1;
        if (::ioctl(p[0], FIONREAD, &pending) != 0 || pending != 0) ::_exit(101);
        if (::fcntl(p[1], F_DUPFD_CLOEXEC, 10) < 10) ::_exit(102);
    });
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a confined launch host execs its own path once, under the filter still; any other exec ends it") {
    const std::string shell = "/bin/sh";
    const auto run_shell = [&](const char* script, const std::string& path) {
        return confined_child(shell, [&] {
            const char* argv[] = {"sh", "-c", script, nullptr};
            ::execv(path.c_str(), const_cast<char* const*>(argv));
            ::_exit(98);
        });
    };
    // Its own exec: the shell runs (`exit` is built in).
    int status = run_shell("exit 7", shell);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 7);
    // Once: the shell's own exec of another program ends it (SIGSYS), not refused with an error to retry.
    status = run_shell("exec /bin/true", shell);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSYS);
    // The same path from another address: ended too.
    const std::string other = shell + "";
    status = run_shell("exit 0", other);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSYS);
}

TEST_CASE("under a tool, a confined launch host may exec any program, which stays confined") {
    // compute-sanitizer and Nsight Compute take part in the exec of the processes they follow; the
    // program exec'd is still one process that signals and traces nothing else.
    const std::string shell = "/bin/sh";
    const auto run_shell = [&](const char* script) {
        return confined_child(
            shell,
            [&] {
                const char* argv[] = {"sh", "-c", script, nullptr};
                ::execv("/bin/sh", const_cast<char* const*>(argv));  // another address than shell's
                ::_exit(98);
            },
            true);
    };
    int status = run_shell("exec /bin/sh -c 'exit 7'");  // two execs, neither the first path's address
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 7);
    status = run_shell("/bin/true && exit 3; exit 4");  // a command needs a process: refused
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) != 3);
    status = run_shell("kill -0 $PPID && exit 5; exit 6");  // the parent: out of reach (kill is built in)
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 6);
    // Without a tool the same second exec ends the process.
    status = confined_child(shell, [&] {
        const char* argv[] = {"sh", "-c", "exit 7", nullptr};
        ::execv("/bin/sh", const_cast<char* const*>(argv));
        ::_exit(98);
    });
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGSYS);
}

TEST_CASE("a launch message's passed descriptors are all closed in the receiver but the one it keeps") {
    // A host could send several descriptors in one record: any left open in the check program would keep
    // what they name (the host's GPU context, a lock) alive after the host was ended.
    const auto open_fds = [] {
        int n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) ++n;
        return n;
    };
    int sv[2];
    REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    int pipes[3][2];
    for (auto& p : pipes) REQUIRE(::pipe(p) == 0);
    const int before = open_fds();
    {
        const char frame[] = {2, 0, 0, 0, '{', '}'};  // a message of two bytes, "{}"
        iovec io{const_cast<char*>(frame), sizeof frame};
        alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))] = {};
        msghdr msg{};
        msg.msg_iov = &io;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(3 * sizeof(int));
        const int fds[3] = {pipes[0][0], pipes[1][0], pipes[2][0]};
        std::memcpy(CMSG_DATA(c), fds, sizeof fds);
        REQUIRE(::sendmsg(sv[0], &msg, 0) == static_cast<ssize_t>(sizeof frame));
    }
    const grading::wire::Received r = grading::wire::receive(sv[1]);
    CHECK(r.message.is_object());
    {
        // And the way the check program passes one (a buffer to map): kept, the message intact.
        grading::wire::send(sv[0], {{"op", "map"}}, pipes[0][1]);
        const grading::wire::Received m = grading::wire::receive(sv[1]);
        CHECK(m.message.value("op", "") == "map");
        CHECK(m.fd >= 0);
        if (m.fd >= 0) ::close(m.fd);
        grading::wire::send(sv[0], {{"op", "call"}});
        CHECK(grading::wire::receive(sv[1]).fd < 0);
    }
    REQUIRE(r.fd >= 0);
    CHECK(open_fds() == before + 1);  // the one kept; the other two closed
    ::close(r.fd);
    CHECK(open_fds() == before);
    for (auto& p : pipes) ::close(p[0]), ::close(p[1]);
    ::close(sv[0]);
    ::close(sv[1]);
}
