// The launch host's confinement (support/confinement.hpp), in a child process of the test: what the
// student's code in a confined host can and cannot do.
#include <doctest/doctest.h>

#include "confinement.hpp"
#include "lab_build.hpp"
#include "lab_checks.hpp"
#include "launch_wire.hpp"

#include <fcntl.h>
#include <signal.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

namespace {

// Runs @p body in a confined child (allowed to exec only @p exec_path's own pointer) and returns its wait
// status; the body's exit code says which expectation failed.
int confined_child(const std::string& exec_path, const std::function<void()>& body) {
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!grading::isolation::confine_launch_host(exec_path.c_str())) ::_exit(90);
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

TEST_CASE("a launch host writes only in its working folder and the devices (under a tool, also /tmp)") {
    namespace fs = std::filesystem;
    if (::syscall(__NR_landlock_create_ruleset, nullptr, 0, 1u) < 1) {
        MESSAGE("no Landlock on this system: not tested");
        return;
    }
    // Two folders the test may write: one in /tmp, and one outside the folders a host under a tool may
    // write (the build folder, else the home folder: a build in /tmp, as in a fresh clone there, is in
    // reach of a host under a tool, which is why grade also checks its own programs).
    const fs::path base = fs::temp_directory_path() / ("course-landlock-" + std::to_string(::getpid()));
    const auto in_reach_of_tools = [](const fs::path& p) {
        const std::string c = fs::weakly_canonical(p).string() + "/";
        return c.rfind("/tmp/", 0) == 0 || c.rfind("/var/tmp/", 0) == 0 || c.rfind("/dev/", 0) == 0;
    };
    fs::path outside = fs::path(SAMPLE_REPORT_DIR);
    if (in_reach_of_tools(outside) && std::getenv("HOME")) outside = std::getenv("HOME");
    const bool tools_tested = !in_reach_of_tools(outside);
    outside /= "course-landlock-" + std::to_string(::getpid());
    fs::create_directories(base / "scratch");
    fs::create_directories(outside);
    std::ofstream(outside / "grader") << "the grader's program\n";
    std::ofstream(base / "grader") << "the grader's program\n";
    const auto run = [&](bool under_tool, const std::function<int()>& body) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (::chdir((base / "scratch").c_str()) != 0) ::_exit(90);
            if (!grading::isolation::restrict_host_writes(under_tool)) ::_exit(89);
            ::_exit(body());
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 200;
    };
    const auto writes = [](const fs::path& p) {
        const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return false;
        ::close(fd);
        return true;
    };
    const auto tries = [&](const fs::path& elsewhere) {
        if (!writes("mine.txt")) return 91;                  // its working folder: yes
        if (!writes("/dev/null")) return 92;                 // a device: yes
        // Its own thread's name (what the CUDA driver does for the threads it starts): yes.
        const std::string comm = "/proc/self/task/" + std::to_string(::syscall(SYS_gettid)) + "/comm";
        const int named = ::open(comm.c_str(), O_WRONLY);
        if (named < 0 || ::write(named, "host", 4) != 4) return 102;
        ::close(named);
        // And a thread started after the rule was made, as the driver's are.
        int thread_named = 0;
        std::thread([&] {
            const std::string own = "/proc/self/task/" + std::to_string(::syscall(SYS_gettid)) + "/comm";
            const int fd = ::open(own.c_str(), O_WRONLY);
            thread_named = fd >= 0 && ::write(fd, "worker", 6) == 6;
            if (fd >= 0) ::close(fd);
        }).join();
        if (!thread_named) return 104;
        // Another process's files in /proc (its memory among them): no.
        if (writes("/proc/" + std::to_string(::getppid()) + "/comm")) return 103;
        if (writes(elsewhere / "grader")) return 93;         // a file elsewhere: no
        if (writes(elsewhere / "new")) return 94;            // a new file elsewhere: no
        if (::rename("mine.txt", (elsewhere / "grader").c_str()) == 0) return 95;  // nor renamed over it
        if (::unlink((elsewhere / "grader").c_str()) == 0) return 96;
        if (::truncate((elsewhere / "grader").c_str(), 0) == 0) return 97;
        if (::link("mine.txt", (elsewhere / "linked").c_str()) == 0) return 98;
        if (::symlink("mine.txt", (elsewhere / "sym").c_str()) == 0) return 99;
        // Nor through a link made in its own folder.
        ::unlink("way");
        if (::symlink((elsewhere / "grader").c_str(), "way") != 0) return 100;
        if (writes("way")) return 101;
        return 0;
    };
    // Across the exec that makes the host (a shell here): its own threads' names still, nothing else.
    CHECK(run(false, [&] {
              const char* argv[] = {"sh", "-c",
                                    "printf host > /proc/$$/task/$$/comm || exit 1; "
                                    "printf x > ../x 2> /dev/null && exit 2; exit 7",
                                    nullptr};
              ::execv("/bin/sh", const_cast<char* const*>(argv));
              return 98;
          }) == 7);
    CHECK(run(false, [&] { return tries(base); }) == 0);     // /tmp without a tool: out of reach
    CHECK(run(false, [&] { return tries(outside); }) == 0);
    if (tools_tested)
        CHECK(run(true, [&] { return tries(outside); }) == 0);  // under a tool: still out of reach
    else
        MESSAGE("the build and home folders are both in /tmp: a host under a tool is not tested outside it");
    CHECK(run(true, [&] { return writes(base / "new") ? 0 : 1; }) == 0);  // but /tmp is writable
    // And the files are as they were.
    std::ifstream in(outside / "grader");
    std::string line;
    std::getline(in, line);
    CHECK(line == "the grader's program");
    std::error_code ec;
    fs::remove_all(base, ec);
    fs::remove_all(outside, ec);
}

TEST_CASE("a program of the grader's that changed after it was built is found, however it changed") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(SAMPLE_REPORT_DIR) / ("identity-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path check = dir / "lab01_slot1", peer = dir / "lab01_peer_host";
    std::ofstream(check) << "check program";
    std::ofstream(peer) << "peer host";
    const auto ids = grading::identify_files({check, peer});
    CHECK(grading::files_changed(ids).empty());
    // Written in place, the same size.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::ofstream(check, std::ios::in | std::ios::out) << "CHECK";
    CHECK(grading::files_changed(ids).find("lab01_slot1 was changed") != std::string::npos);
    // Another file renamed over it.
    const auto again = grading::identify_files({check, peer});
    std::ofstream(dir / "script") << "#!/bin/sh\n";
    fs::rename(dir / "script", peer);
    CHECK(grading::files_changed(again).find("lab01_peer_host was replaced") != std::string::npos);
    // Removed.
    const auto third = grading::identify_files({check, peer});
    fs::remove(check);
    CHECK(grading::files_changed(third).find("lab01_slot1 was removed") != std::string::npos);
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST_CASE("a launch host keeps no capability, so that as root it cannot read the check program's memory") {
    // The check program is not dumpable: its /proc/<pid>/mem opens only to CAP_SYS_PTRACE, which root has.
    static char reference[32] = "the expected result: 12345";
    const int was_dumpable = ::prctl(PR_GET_DUMPABLE);
    ::prctl(PR_SET_DUMPABLE, 0);
    const auto child = [&](bool drop) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            if (drop && !grading::isolation::drop_capabilities(false)) ::_exit(90);
            const std::string mem = "/proc/" + std::to_string(::getppid()) + "/mem";
            const int fd = ::open(mem.c_str(), O_RDONLY);
            char copy[32] = {};
            const bool read = fd >= 0 && ::pread(fd, copy, sizeof copy, reinterpret_cast<off_t>(reference)) > 0;
            if (drop) {
                // And the exec that makes the host gives none back, not even to root.
                const char* argv[] = {"sh", "-c",
                                      "grep -Eq '^CapEff:[[:space:]]*0+$' /proc/self/status && "
                                      "grep -Eq '^CapPrm:[[:space:]]*0+$' /proc/self/status && exit 7; exit 8",
                                      nullptr};
                if (read) ::_exit(91);
                ::execv("/bin/sh", const_cast<char* const*>(argv));
                ::_exit(92);
            }
            ::_exit(read && std::strcmp(copy, reference) == 0 ? 0 : 1);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 200;
    };
    if (::geteuid() == 0) CHECK(child(false) == 0);  // with root's capabilities it could
    CHECK(child(true) == 7);
    ::prctl(PR_SET_DUMPABLE, was_dumpable);
}

TEST_CASE("a lab whose grader's programs changed during its grading gets no points, and they are built again") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(SAMPLE_REPORT_DIR) / ("changed-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "lab01_slot1") << "check program";
    std::ofstream(dir / "lab01_peer_host") << "peer host";
    grading::RubricLab lab;
    lab.id = "01";
    std::vector<grading::LabJob> jobs(2);
    std::vector<grading::LabResult> results(2);
    for (auto& j : jobs) {
        j.lab = &lab;
        j.grader_files = grading::identify_files({dir / "lab01_slot1", dir / "lab01_peer_host"});
    }
    for (auto& r : results) {
        grading::CheckResult c;
        c.name = "speed";
        c.points = c.max_points = 2;
        r.checks.push_back(c);
    }
    std::ostringstream out;
    grading::fail_changed_graders(jobs, results, out);  // nothing changed: nothing happens
    CHECK(results[0].checks[0].points == 2);
    CHECK(out.str().empty());
    // The peers' host replaced by another file, as the submission's code would have to.
    std::ofstream(dir / "other") << "#!/bin/sh\n";
    fs::rename(dir / "other", dir / "lab01_peer_host");
    jobs[1].grader_files.clear();  // a lab of another grading's, which records none of these files
    grading::fail_changed_graders(jobs, results, out);
    CHECK(results[0].checks[0].points == 0);
    CHECK(results[0].checks[0].cls == grading::Failure::GraderIntegrity);
    CHECK(results[0].checks[0].message.find("lab01_peer_host was replaced") != std::string::npos);
    CHECK(results[1].checks[0].points == 2);
    CHECK(!fs::exists(dir / "lab01_peer_host"));  // made again by the next build
    CHECK(!fs::exists(dir / "lab01_slot1"));
    std::error_code ec;
    fs::remove_all(dir, ec);
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
