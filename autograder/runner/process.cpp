// Child processes with a time limit (see process.hpp). POSIX only.
#include "process.hpp"

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace grading {

ProcessOutcome run_with_timeout(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
                                double& elapsed_s, const std::string& working_dir) {
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid < 0) return {ProcessOutcome::Kind::Exited, 127, 0, "fork failed"};
    if (pid == 0) {
        setpgid(0, 0);  // its own group: a timeout kills it and anything it started
        if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(126);
        const int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    setpgid(pid, pid);
    ProcessOutcome out;
    for (;;) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (r == pid) {
            if (WIFEXITED(status)) out = {ProcessOutcome::Kind::Exited, WEXITSTATUS(status), 0, ""};
            else out = {ProcessOutcome::Kind::Signaled, WTERMSIG(status), 0, ""};
            return out;
        }
        if (elapsed_s > timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return {ProcessOutcome::Kind::TimedOut, SIGKILL, timeout_s, ""};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
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
