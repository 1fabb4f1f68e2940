// Child processes with a time limit (see process.hpp). POSIX only.
#include "process.hpp"
#include "whereabouts.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <string_view>
#include <cstring>
#include <poll.h>
#include <pthread.h>
#include <sstream>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace grading {

namespace {
// The keeper's part (see run_with_timeout): it runs between fork() and _exit() in a child of a process that
// may have other threads, so it calls only system calls, on buffers of its own stack.

// Reads the parent's pid from /proc/<pid>/stat ("pid (name) state ppid ..."; the name may hold anything, so
// the fields are read after its last ')'); -1 when the process is gone.
long parent_of(const char* pid_digits) {
    char path[64] = "/proc/";
    std::size_t n = 6;
    for (const char* c = pid_digits; *c && n + 6 < sizeof path; ++c) path[n++] = *c;
    const char tail[] = "/stat";
    for (const char* c = tail; *c; ++c) path[n++] = *c;
    path[n] = 0;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[1024];
    const ssize_t got = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (got <= 0) return -1;
    std::size_t close_paren = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(got); ++i)
        if (buf[i] == ')') close_paren = i;
    std::size_t i = close_paren + 1;
    while (i < static_cast<std::size_t>(got) && buf[i] == ' ') ++i;
    while (i < static_cast<std::size_t>(got) && buf[i] != ' ') ++i;  // the state
    while (i < static_cast<std::size_t>(got) && buf[i] == ' ') ++i;
    long ppid = 0;
    bool any = false;
    for (; i < static_cast<std::size_t>(got) && buf[i] >= '0' && buf[i] <= '9'; ++i, any = true) ppid = ppid * 10 + (buf[i] - '0');
    return any ? ppid : -1;
}

// Calls @p f(pid) for every process whose parent is @p parent, from a scan of /proc (system calls only, on
// a buffer of the stack: the keeper calls it too).
template <class F>
void for_each_child_of(long parent, F&& f) {
    const int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return;
    alignas(8) char buf[8192];
    for (long got; (got = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0;)
        for (long off = 0; off < got;) {
            // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name
            unsigned short reclen = 0;
            std::memcpy(&reclen, buf + off + 16, sizeof reclen);
            const char* name = buf + off + 19;
            off += reclen;
            if (name[0] < '0' || name[0] > '9' || parent_of(name) != parent) continue;
            long pid = 0;
            for (const char* c = name; *c >= '0' && *c <= '9'; ++c) pid = pid * 10 + (*c - '0');
            f(static_cast<pid_t>(pid));
        }
    close(dir);
}

// SIGKILLs every child of this process (the keeper, a subreaper: every orphan below it is its child).
void kill_children() {
    for_each_child_of(getpid(), [](pid_t pid) { kill(pid, SIGKILL); });
}

double monotonic_s() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Ends the program's process group and everything left below the keeper, reaping all of it, for at most
// kKeeperCleanupS (a process that forks faster than it is killed is left to the runner, a subreaper too,
// below which it is once the keeper ends). The program's group is signalled only while the program is
// unreaped (its number then cannot name another group); @p status receives the program's wait status, and
// @p reaped says whether it was.
void end_everything_below(pid_t program, int& status, bool& reaped) {
    const timespec ms{0, 1000000};
    const double until = monotonic_s() + kKeeperCleanupS;
    for (;;) {
        if (!reaped) kill(-program, SIGKILL);
        kill_children();
        int st = 0;
        for (pid_t r; (r = waitpid(-1, &st, WNOHANG)) > 0;)
            if (r == program) {
                status = st;
                reaped = true;
            }
        if (waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return;
        if (monotonic_s() > until) return;
        nanosleep(&ms, nullptr);
    }
}

// The keeper: runs @p args in a process group of its own, waits until it ends or the runner asks for an
// end (SIGTERM from @p runner: its time limit, or its death, which the kernel signals), then ends everything
// below and exits as the program did. Every other signal is taken and ignored: a process below cannot stop
// it short of SIGKILL or SIGSTOP, which only the unconfined hosts of the tools' runs may send (the runner,
// a subreaper, then ends what it left). @p before: the signal mask the program starts with.
[[noreturn]] void keep(char* const* args, const sigset_t& before, pid_t runner) {
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) _exit(127);
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // the runner gone (killed), everything below ends too
    if (getppid() != runner) _exit(127);
    signal(SIGCHLD, SIG_DFL);  // children are waited for, not reaped by the kernel
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, nullptr);
    const pid_t program = fork();
    if (program < 0) _exit(127);
    if (program == 0) {
        setpgid(0, 0);  // its own group: the keeper ends it and anything it started
        sigprocmask(SIG_SETMASK, &before, nullptr);
        execv(args[0], args);
        _exit(127);
    }
    setpgid(program, program);
    // The keeper holds nothing of the program's or the runner's (it never execs, so O_CLOEXEC does not close
    // them): not the input's write end, whose holder would keep the program reading forever; not the
    // report channel, nor a lock.
    const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull >= 0) dup2(devnull, STDIN_FILENO);
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
        for (int fd = 3; fd < 65536; ++fd) close(fd);
    bool ended = false;
    for (;;) {
        siginfo_t info{};
        if (sigwaitinfo(&all, &info) < 0) continue;
        if (info.si_signo == SIGTERM) {
            // The runner's own (kill(): SI_USER with its pid, which no other process can forge; its death
            // signal comes the same way), or any SIGTERM once the runner is gone.
            if ((info.si_code != SI_USER || info.si_pid != runner) && getppid() == runner) continue;
            // A check program says what it was doing (whereabouts.hpp) before it is killed.
            kill(program, whereabouts::kSayWhereSignal);
            const timespec moment{0, 300000000};
            nanosleep(&moment, nullptr);
            break;
        }
        if (info.si_signo != SIGCHLD) continue;
        // Orphans that ended are reaped; the program is only looked at (waited for without reaping, so
        // that its group's number stays its own until the group is killed).
        bool more = true;
        while (more && !ended) {
            siginfo_t child{};
            more = waitid(P_ALL, 0, &child, WEXITED | WNOHANG | WNOWAIT) == 0 && child.si_pid > 0;
            if (!more) break;
            if (child.si_pid == program) ended = true;
            else waitpid(child.si_pid, nullptr, WNOHANG);
        }
        if (ended) break;
    }
    int status = 0;
    bool reaped = false;
    end_everything_below(program, status, reaped);
    if (!ended) _exit(124);
    if (!reaped) _exit(127);
    if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
    // Killed by a signal: the keeper ends by the same signal, without a core file of its own.
    const int sig = WTERMSIG(status);
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    sigprocmask(SIG_UNBLOCK, &only, nullptr);
    kill(getpid(), sig);
    _exit(128 + sig);
}

// The keepers this process started and has not reaped, and the lock held across each fork and sweep, so
// that a sweep never takes a keeper just forked (by another thread) for an orphan.
std::mutex spawning;
std::set<pid_t> keepers;

// In a runner that is a subreaper (grade: mark_runner_subreaper()), kills and reaps every child of its own
// that is not one of its keepers: whatever a keeper killed or stopped (SIGKILL, SIGSTOP: an unconfined
// process below it can) left behind, reparented here. For at most 2 s. Called with `spawning` held.
void sweep_orphans() {
    int on = 0;
    if (prctl(PR_GET_CHILD_SUBREAPER, &on) != 0 || !on) return;
    const long self = getpid();
    std::set<pid_t> killed;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
        bool found = false;
        for_each_child_of(self, [&](pid_t pid) {
            if (keepers.count(pid)) return;
            found = true;
            kill(pid, SIGKILL);
            killed.insert(pid);
        });
        for (auto it = killed.begin(); it != killed.end();)
            it = waitpid(*it, nullptr, WNOHANG) != 0 ? killed.erase(it) : std::next(it);
        if ((!found && killed.empty()) || std::chrono::steady_clock::now() > until) return;
        poll(nullptr, 0, 1);
    }
}

// Appends whatever the channel holds now to @p out (non-blocking read end).
void drain(int fd, std::string* out) {
    std::array<char, 65536> buf;
    for (;;) {
        const ssize_t got = read(fd, buf.data(), buf.size());
        if (got > 0) {
            if (out) out->append(buf.data(), static_cast<std::size_t>(got));
            continue;
        }
        if (got < 0 && errno == EINTR) continue;
        return;  // empty (EAGAIN) or closed
    }
}
}  // namespace

ProcessOutcome run_with_timeout(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
                                double& elapsed_s, const std::string& working_dir, std::string* report,
                                const std::string& report_key, const std::string& more_input) {
    const auto start = std::chrono::steady_clock::now();
    int channel[2] = {-1, -1}, key_pipe[2] = {-1, -1};
    if (report && (pipe2(channel, O_CLOEXEC) != 0 || pipe2(key_pipe, O_CLOEXEC) != 0))
        return {ProcessOutcome::Kind::Exited, 127, 0, "pipe failed"};
    // Everything the child needs is made before fork(): the runner may have other threads.
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    sigset_t mask;
    pthread_sigmask(SIG_SETMASK, nullptr, &mask);
    const pid_t runner = getpid();
    spawning.lock();  // fork and register as one (see sweep_orphans)
    const pid_t pid = fork();
    if (pid < 0) {
        spawning.unlock();
        return {ProcessOutcome::Kind::Exited, 127, 0, "fork failed"};
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(126);
        const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        if (report) {
            // The key arrives on stdin, read by the program's main() (so not even code that runs before
            // main can find it in the environment); the write end of the channel becomes kReportFd.
            dup2(key_pipe[0], STDIN_FILENO);
            if (channel[1] == kReportFd) fcntl(kReportFd, F_SETFD, 0);
            else if (dup2(channel[1], kReportFd) < 0) _exit(127);
        } else {
            const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (devnull >= 0) dup2(devnull, STDIN_FILENO);
        }
        keep(args.data(), mask, runner);
    }
    keepers.insert(pid);
    spawning.unlock();
    setpgid(pid, pid);
    if (report) {
        close(channel[1]);
        close(key_pipe[0]);
        const std::string line = report_key + "\n" + more_input;
        if (write(key_pipe[1], line.data(), line.size()) < 0) {}  // a child that died already reads nothing
        close(key_pipe[1]);
        fcntl(channel[0], F_SETFL, O_NONBLOCK);
    }
    ProcessOutcome out;
    bool timed_out = false;
    // The child's waits for the GPU lock, from its "gpu_wait" records (see process.hpp).
    std::size_t scanned = 0;  // how much of *report was looked at
    double waited = 0.0;      // seconds of finished waits
    std::optional<std::chrono::steady_clock::time_point> waiting_since;
    const auto scan = [&] {
        for (std::size_t nl; (nl = report->find('\n', scanned)) != std::string::npos; scanned = nl + 1) {
            const std::string_view line(report->data() + scanned, nl - scanned);
            if (line.find("\"gpu_wait\"") == std::string_view::npos) continue;
            const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
            if (!j.is_object() || j.value("event", "") != "gpu_wait" || j.value("key", "") != report_key) continue;
            const auto now = std::chrono::steady_clock::now();
            if (j.value("state", "") == "begin") {
                waiting_since = now;
            } else if (waiting_since) {
                waited += std::chrono::duration<double>(now - *waiting_since).count();
                waiting_since.reset();
            }
        }
    };
    for (;;) {
        // Exited? Look without reaping, so its process group cannot be reused before it is killed.
        siginfo_t info{};
        const int r = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
        const auto now = std::chrono::steady_clock::now();
        elapsed_s = std::chrono::duration<double>(now - start).count();
        if (r == 0 && info.si_pid == pid) break;
        const double wait_s =
            waited + (waiting_since ? std::chrono::duration<double>(now - *waiting_since).count() : 0.0);
        if (elapsed_s - std::min(wait_s, kMaxLockWaitS) > timeout_s) {
            timed_out = true;
            break;
        }
        if (report) {
            pollfd p{channel[0], POLLIN, 0};
            poll(&p, 1, 20);
            drain(channel[0], report);
            scan();
        } else {
            poll(nullptr, 0, 20);
        }
    }
    // Whatever the lab left behind (or everything, on a timeout) is ended before its results are read: on a
    // timeout the keeper is asked to end it all (SIGTERM), and given kKeeperGraceS before it is killed too.
    if (timed_out) {
        kill(pid, SIGTERM);
        const auto asked = std::chrono::steady_clock::now();
        for (;;) {
            siginfo_t info{};
            if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
            if (std::chrono::steady_clock::now() - asked > std::chrono::duration<double>(kKeeperGraceS)) break;
            poll(nullptr, 0, 5);
        }
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    {
        const std::lock_guard<std::mutex> one_at_a_time(spawning);
        keepers.erase(pid);
        sweep_orphans();
    }
    if (report) {
        drain(channel[0], report);
        close(channel[0]);
    }
    if (timed_out) return {ProcessOutcome::Kind::TimedOut, SIGKILL, timeout_s, ""};
    if (WIFEXITED(status)) out = {ProcessOutcome::Kind::Exited, WEXITSTATUS(status), 0, ""};
    else out = {ProcessOutcome::Kind::Signaled, WTERMSIG(status), 0, ""};
    return out;
}

bool mark_runner_subreaper() { return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0; }

std::optional<std::string> read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string first_error_line(const std::string& log) {
    std::istringstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        if (line.find("error") == std::string::npos) continue;
        if (line.find("warning") != std::string::npos) continue;
        if (line.rfind("make", 0) == 0 || line.rfind("gmake", 0) == 0 || line.rfind("ninja", 0) == 0) continue;
        const auto b = line.find_first_not_of(" \t");
        line = line.substr(b == std::string::npos ? 0 : b);
        if (line.size() <= 300) return line;
        // Cut at a character's start: the line may echo the student's source, whose UTF-8 a byte cut
        // would break (and the reports are JSON).
        std::size_t cut = 300;
        while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
        return line.substr(0, cut) + "...";
    }
    return "";
}

}  // namespace grading
