// Child processes with a time limit (see process.hpp). POSIX only.
#include "process.hpp"

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
#include <optional>
#include <string_view>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace grading {

namespace {
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
    const pid_t pid = fork();
    if (pid < 0) return {ProcessOutcome::Kind::Exited, 127, 0, "fork failed"};
    if (pid == 0) {
        setpgid(0, 0);  // its own group: the runner kills it and anything it started
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
        execv(args[0], args.data());
        _exit(127);
    }
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
    // Whatever the lab left behind (or everything, on a timeout) is killed before its results are read.
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (report) {
        drain(channel[0], report);
        close(channel[0]);
    }
    if (timed_out) return {ProcessOutcome::Kind::TimedOut, SIGKILL, timeout_s, ""};
    if (WIFEXITED(status)) out = {ProcessOutcome::Kind::Exited, WEXITSTATUS(status), 0, ""};
    else out = {ProcessOutcome::Kind::Signaled, WTERMSIG(status), 0, ""};
    return out;
}

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
        return line.size() > 300 ? line.substr(0, 300) + "..." : line;
    }
    return "";
}

}  // namespace grading
