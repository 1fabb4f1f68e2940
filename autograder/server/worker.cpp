#include "worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace service {
namespace {
constexpr std::size_t kMaxOutput = 4 << 20;  // what is kept of a grading's printed output
constexpr const char* kSandboxJobDir = "/submission";  // where a grading's folder lies in the sandbox

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// System folders the grader needs (compilers, CMake, the CUDA Toolkit, their libraries), read-only; the
// top-level links of a merged /usr stay links.
void system_view(std::vector<std::string>& a) {
    for (const char* dir : {"/usr", "/opt"}) {
        if (fs::is_directory(dir)) a.insert(a.end(), {"--ro-bind", dir, dir});
    }
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        std::error_code ec;
        if (fs::is_symlink(top, ec)) a.insert(a.end(), {"--symlink", fs::read_symlink(top, ec).string(), top});
        else if (fs::is_directory(top, ec)) a.insert(a.end(), {"--ro-bind", top, top});
    }
    // Of /etc only what running programs needs: the linker's cache, the alternatives compilers are
    // reached through, and the names of users.
    for (const char* f : {"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                          "/etc/passwd", "/etc/group", "/etc/nsswitch.conf"})
        a.insert(a.end(), {"--ro-bind-try", f, f});
}

// Grading's exit codes that are a result (all passed; something failed), not a failure to grade.
bool is_result(int code) { return code == 0 || code == 1; }
}  // namespace

std::vector<int> visible_gpus() {
    std::vector<int> gpus;
    std::error_code ec;
    const std::regex node("nvidia([0-9]+)");
    for (const auto& e : fs::directory_iterator("/dev", ec)) {
        std::smatch m;
        const std::string name = e.path().filename().string();
        if (std::regex_match(name, m, node)) gpus.push_back(std::stoi(m[1]));
    }
    std::sort(gpus.begin(), gpus.end());
    return gpus;
}

std::vector<std::string> sandbox_args(const WorkerOptions& o, const std::string& job_dir, int gpu) {
    std::vector<std::string> a = {o.bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--proc", "/proc",
                                  "--dev", "/dev", "--tmpfs", "/tmp"};
    system_view(a);
    a.insert(a.end(), {"--ro-bind", o.course_dir, o.course_dir});
    // The grader builds the submission's programs in the build folder's grading slots, so the build folder
    // is writable; its grading/ folder (logs and scratch of `grade --labs-dir`) is this grading's own,
    // except the slots every grader shares, which their locks keep apart.
    const fs::path grading = fs::path(o.build_dir) / "grading";
    a.insert(a.end(), {"--bind", o.build_dir, o.build_dir, "--bind", (fs::path(job_dir) / "grading").string(),
                       grading.string(), "--bind", (grading / "slots").string(), (grading / "slots").string()});
    // The submission is always at the same place: the grader's messages name /submission/labs/..., and a
    // lab whose regions did not change is not compiled again (the graded file names the student's path).
    a.insert(a.end(), {"--bind", job_dir, kSandboxJobDir, "--chdir", kSandboxJobDir});
    if (gpu >= 0) {
        a.insert(a.end(), {"--dev-bind", "/dev/nvidia" + std::to_string(gpu), "/dev/nvidia" + std::to_string(gpu)});
        for (const char* n : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset"})
            a.insert(a.end(), {"--dev-bind-try", n, n});
        // What the driver's library reads of the system (the GPUs' PCI devices), read-only.
        for (const char* s : {"/sys/bus/pci", "/sys/devices", "/sys/module/nvidia"}) a.insert(a.end(), {"--ro-bind-try", s, s});
        // Other grade processes on this GPU (an instructor's own) take the same lock.
        const std::string lock = "/tmp/course-grader-gpu-" + std::to_string(gpu) + ".lock";
        ::close(::open(lock.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0666));
        a.insert(a.end(), {"--bind", lock, lock});
    }
    a.push_back("--");
    return a;
}

std::string gpu_model(int minor) {
    // The driver names each GPU in /proc/driver/nvidia/gpus/<PCI address>/information.
    std::error_code ec;
    const std::regex model(R"(Model:\s*(.*\S))"), dev(R"(Device Minor:\s*([0-9]+))");
    for (const auto& e : fs::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
        const std::string info = read_all(e.path() / "information");
        std::smatch m, d;
        if (std::regex_search(info, d, dev) && std::stoi(d[1]) == minor && std::regex_search(info, m, model)) return m[1];
    }
    return "GPU " + std::to_string(minor);
}

Workers::Workers(Store& store, WorkerOptions options, const std::vector<int>& gpus, int cpu_workers)
    : store_(store), o_(std::move(options)) {
    if (!gpus.empty())
        for (int g : gpus) info_.push_back({"gpu" + std::to_string(g), g, gpu_model(g) + " (/dev/nvidia" + std::to_string(g) + ")"});
    else
        for (int i = 0; i < cpu_workers; ++i) info_.push_back({"cpu" + std::to_string(i), -1, "none: builds and audits only"});
    for (const auto& w : info_) threads_.emplace_back([this, w] { run(w.name, w.gpu); });
}

Workers::~Workers() { stop(); }

void Workers::notify() { cv_.notify_one(); }

void Workers::stop() {
    stopping_ = true;
    cv_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
}

void Workers::run(const std::string& name, int gpu) {
    while (!stopping_) {
        std::optional<Job> job;
        try {
            job = store_.claim(name);
        } catch (const std::exception& e) {
            std::cerr << "course-server: " << name << ": " << e.what() << "\n";
        }
        if (!job) {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait_for(lock, std::chrono::seconds(1));
            continue;
        }
        grade(*job, name, gpu);
    }
}

void Workers::grade(const Job& job, const std::string& name, int gpu) {
    // The worker's own folder, emptied for each grading: without a sandbox too, the submission's path is
    // the same from one grading to the next.
    const fs::path dir = fs::path(o_.scratch) / name;
    std::error_code ec;
    fs::remove_all(dir, ec);
    for (const char* sub : {"labs", "out", "home", "grading/slots"}) fs::create_directories(dir / sub);
    fs::create_directories(fs::path(o_.build_dir) / "grading" / "slots");
    std::vector<std::string> argv;
    if (o_.sandbox) argv = sandbox_args(o_, dir.string(), gpu);
    const fs::path seen = o_.sandbox ? fs::path(kSandboxJobDir) : dir;  // the folder as the grader sees it
    argv.insert(argv.end(), {o_.grade, "--build-dir", o_.build_dir, "--labs-dir", (seen / "labs").string(), "--results",
                             (seen / "out" / "results.json").string(), "--junit", (seen / "out" / "junit.xml").string()});
    // A copy of the student's files: the grader only reads them, and the stored ones are never touched.
    for (const auto& f : job.files) {
        fs::create_directories(dir / "labs" / f.lab_dir);
        std::ofstream(dir / "labs" / f.lab_dir / f.name, std::ios::binary) << f.content;
        argv.insert(argv.end(), {"--lab", f.lab_id});
    }
    if (o_.no_gpu) argv.push_back("--allow-no-gpu");
    argv.insert(argv.end(), o_.grade_args.begin(), o_.grade_args.end());

    std::vector<std::string> env = {"PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + (seen / "home").string(),
                                    "LANG=C.UTF-8", "CUDA_DEVICE_ORDER=PCI_BUS_ID"};
    env.push_back(gpu >= 0 ? "CUDA_VISIBLE_DEVICES=" + std::to_string(gpu) : "CUDA_VISIBLE_DEVICES=");
    if (!o_.sandbox) env.push_back("TMPDIR=" + (dir / "home").string());
    // Everything the child needs is made before fork: after it, only async-signal-safe calls.
    std::vector<char*> cargv, cenv;
    for (auto& s : argv) cargv.push_back(s.data());
    cargv.push_back(nullptr);
    for (auto& s : env) cenv.push_back(s.data());
    cenv.push_back(nullptr);
    const std::string workdir = dir.string();  // the child's folder before the sandbox starts
    const bool root = ::geteuid() == 0;
    const rlim_t mib = 1 << 20;

    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        store_.interrupted(job.id, job.claim, "the worker could not start the grader (pipe)", o_.max_attempts);
        return;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server gone, its gradings go too
        const auto limit = [](int what, rlim_t v) {
            const rlimit r{v, v};
            ::setrlimit(what, &r);
        };
        limit(RLIMIT_CORE, 0);
        limit(RLIMIT_FSIZE, static_cast<rlim_t>(o_.max_file_mb) * mib);
        limit(RLIMIT_NOFILE, 4096);
        if (!root) limit(RLIMIT_NPROC, static_cast<rlim_t>(o_.max_procs));  // root is not held by it
        if (gpu < 0 && o_.memory_mb > 0) limit(RLIMIT_AS, static_cast<rlim_t>(o_.memory_mb) * mib);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(out[1], 2);
        // Nothing of the server (its listening socket, the database) reaches the grading.
        for (int fd = 3; fd < 4096; ++fd) ::close(fd);
        if (::chdir(workdir.c_str()) != 0) ::_exit(127);
        ::execve(cargv[0], cargv.data(), cenv.data());
        ::_exit(127);
    }
    ::close(out[1]);
    if (pid < 0) {
        ::close(out[0]);
        store_.interrupted(job.id, job.claim, "the worker could not start the grader (fork)", o_.max_attempts);
        return;
    }
    std::cerr << "course-server: " << name << " grades submission " << job.id << " (attempt " << job.attempt << ")\n";
    std::string output;
    int status = 0;
    bool grading = false, timed_out = false, stopped = false, reaped = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o_.timeout_s);
    for (;;) {
        pollfd p{out[0], POLLIN, 0};
        const int r = ::poll(&p, 1, 500);
        if (r > 0) {
            char buf[65536];
            const ssize_t n = ::read(out[0], buf, sizeof buf);
            if (n <= 0) break;
            if (output.size() < kMaxOutput) output.append(buf, static_cast<std::size_t>(n));
            // The checks begin once every lab is built: the stage a student sees moves on.
            if (!grading && output.find("checking...") != std::string::npos) {
                grading = true;
                store_.set_grading(job.id, job.claim);
            }
        }
        // The grader gone (killed, say) while something it started still holds the pipe open.
        if (r == 0 && ::waitpid(pid, &status, WNOHANG) == pid) {
            reaped = true;
            break;
        }
        if (stopping_ || std::chrono::steady_clock::now() > deadline) {
            stopped = stopping_;
            timed_out = !stopped;
            ::kill(-pid, SIGKILL);
            break;
        }
    }
    ::close(out[0]);
    while (!reaped && ::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    ::kill(-pid, SIGKILL);  // anything the grading left running
    if (output.size() >= kMaxOutput) output += "\n[output cut at 4 MiB]\n";

    if (stopped) {
        store_.release(job.id, job.claim);
    } else if (timed_out) {
        store_.interrupted(job.id, job.claim, "the grading took longer than " + std::to_string(static_cast<int>(o_.timeout_s)) + " s",
                           o_.max_attempts);
    } else if (WIFEXITED(status) && is_result(WEXITSTATUS(status))) {
        const std::string results = read_all(dir / "out" / "results.json");
        // The page grade wrote beside results.json (report_html.cpp), kept as the submission's report.
        const std::string report = read_all(dir / "out" / "report.html");
        if (!store_.finish(job.id, job.claim, WEXITSTATUS(status), output, results, report))
            std::cerr << "course-server: submission " << job.id << " was no longer " << name << "'s to finish\n";
    } else {
        const std::string why = WIFSIGNALED(status) ? "the grading process was killed (signal " + std::to_string(WTERMSIG(status)) + ")"
                                                    : WEXITSTATUS(status) == 127 ? "the grader could not be started (exit 127)"
                                                    : "the grader ended with status " + std::to_string(WEXITSTATUS(status)) +
                                                          " (77: no usable GPU; 2: a bad command line)";
        std::cerr << "course-server: submission " << job.id << ": " << why << "\n" << output.substr(0, 2000) << "\n";
        store_.interrupted(job.id, job.claim, why, o_.max_attempts);
    }
    fs::remove_all(dir, ec);
}

}  // namespace service
