#include "worker.hpp"

#include "locks.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace service {
namespace {
constexpr std::size_t kMaxOutput = 4 << 20;  // what is kept of a grading's printed output
constexpr const char* kSandboxJobDir = "/submission";  // where a grading's folder lies in the sandbox
constexpr const char* kReportFiles[] = {"results.json", "junit.xml", "report.html"};  // what the grader writes in out/

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

// grade's exit status when it cannot grade here: no usable GPU, or a tool it needs missing
// (common/device_info.hpp's kExitNoGpu).
constexpr int kGradeCannotGrade = 77;
// How long a worker whose gradings found no usable GPU waits before it claims again.
constexpr int kCannotGradePauseS = 60;

bool write_file(const fs::path& p, const std::string& v) {
    std::ofstream f(p);
    f << v << std::flush;
    return static_cast<bool>(f);
}

// This process's cgroup in the hierarchy whose line in /proc/self/cgroup lists @p controller ("": the
// v2 line, "0::PATH").
std::optional<std::string> own_cgroup(const std::string& controller) {
    std::istringstream lines(read_all("/proc/self/cgroup"));
    for (std::string line; std::getline(lines, line);) {
        const auto a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        std::istringstream names(line.substr(a + 1, b - a - 1));
        bool has = controller.empty() && b == a + 1;
        for (std::string n; !controller.empty() && std::getline(names, n, ',');) has = has || n == controller;
        if (has) return line.substr(b + 1);
    }
    return std::nullopt;
}

// Every process of the cgroup folder @p dir killed (v2's cgroup.kill, else one by one), waiting at most 5 s.
void kill_cgroup(const fs::path& dir) {
    if (fs::exists(dir / "cgroup.kill")) write_file(dir / "cgroup.kill", "1");
    for (int i = 0; i < 100; ++i) {
        std::istringstream pids(read_all(dir / "cgroup.procs"));
        bool any = false;
        for (long pid; pids >> pid;) any = ::kill(static_cast<pid_t>(pid), SIGKILL) == 0 || any;
        if (!any) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}
}  // namespace

std::string limits_at_start(WorkerOptions& o) {
    const std::string mine = "course-server." + std::to_string(::getpid());
    std::error_code ec;
    o.cgroup_roots.clear();
    const std::string limits = "at most " + std::to_string(o.max_procs) + " processes and " + std::to_string(o.memory_mb) + " MiB";
    // cgroup v2. Controllers are given to children only by a cgroup without processes of its own: the server
    // moves into a leaf of its own folder first (as under systemd's Delegate=yes).
    if (const auto own = own_cgroup(""); own && fs::exists("/sys/fs/cgroup/cgroup.controllers")) {
        const fs::path base = fs::path("/sys/fs/cgroup") / own->substr(1), root = base / mine;
        if (fs::create_directories(root / "server", ec) && write_file(root / "server" / "cgroup.procs", std::to_string(::getpid())) &&
            write_file(base / "cgroup.subtree_control", "+pids +memory") &&
            write_file(root / "cgroup.subtree_control", "+pids +memory")) {
            o.cgroup_roots = {root.string()};
            return "a cgroup (v2) a grading under " + root.string() + ": " + limits + " (memory.max), with a GPU too";
        }
        write_file(base / "cgroup.procs", std::to_string(::getpid()));  // back where it was
        fs::remove(root / "server", ec);
        fs::remove(root, ec);
    }
    // cgroup v1: the pids and memory hierarchies, each a folder of the server's.
    const auto pids = own_cgroup("pids"), memory = own_cgroup("memory");
    if (pids && memory && fs::exists("/sys/fs/cgroup/pids/cgroup.procs") && fs::exists("/sys/fs/cgroup/memory/cgroup.procs")) {
        const fs::path p = fs::path("/sys/fs/cgroup/pids") / pids->substr(1) / mine,
                       m = fs::path("/sys/fs/cgroup/memory") / memory->substr(1) / mine;
        if (fs::create_directories(p, ec) && fs::create_directories(m, ec) && fs::exists(p / "pids.max") &&
            fs::exists(m / "memory.limit_in_bytes")) {
            o.cgroup_roots = {p.string(), m.string()};
            return "a cgroup (v1) a grading under " + p.string() + " and " + m.string() + ": " + limits +
                   " (memory.limit_in_bytes), with a GPU too";
        }
        fs::remove(p, ec);
        fs::remove(m, ec);
    }
    std::string why = "WARNING: no cgroup can be made here (not root, or no delegated cgroup): rlimits only, ";
    why += ::geteuid() == 0 ? "and NO process limit (RLIMIT_NPROC does not hold root; run the server as a user of its own)"
                            : "a process limit of " + std::to_string(o.max_procs) + " for the server's whole user";
    return why + "; memory: an address-space limit without a GPU, none with a GPU";
}

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

namespace {
// The slot every sandboxed grading builds in: its grading/slots/ is its own and empty, so `grade` always
// takes the first slot, and its targets' folders are the grading's private copies (prepare_build_view).
constexpr int kSandboxSlot = 1;
const std::regex kSlotTargetDir(R"(lab[0-9]+_slot([0-9]+)(_[a-z]+)?\.dir)");
// Targets' folders in the build whose objects hold the code of a submission other than the grading's
// own: the reference solution, the instructor's labs/, a variant, the bench (linked with the solutions).
const std::regex kReferenceTargetDir(R"(lab[0-9]+_(solution|student|correct_|wrong_)[A-Za-z0-9_]*\.dir|bench(_lab[0-9]+)?\.dir)");
// Programs in graders/ that hold some submission's code (a slot's, the student's, the solution, a
// variant): never shown to a grading. The rest (the peers' launch hosts) are what gradings share.
const std::regex kSubmissionProgram(R"(lab[0-9]+_(slot[0-9]+|student|solution|wrong_.*|correct_.*)(_host)?)");

fs::path view_template(const WorkerOptions& o) { return fs::path(o.scratch) / "build-view"; }

// A slot target's CMake folder without what a build of it left: its folders (the build writes into them)
// but not its objects and their dependency files, so that nothing of an earlier submission goes along.
void copy_pristine(const fs::path& from, const fs::path& to) {
    fs::create_directories(to);
    for (const auto& e : fs::directory_iterator(from)) {
        const std::string name = e.path().filename().string();
        const std::string ext = e.path().extension().string();
        if (ext == ".o" || ext == ".d" || ext == ".obj") continue;
        if (e.is_directory()) copy_pristine(e.path(), to / name);
        else if (e.is_regular_file()) fs::copy_file(e.path(), to / name);
    }
}
}  // namespace

std::string prepare_build_view(WorkerOptions& o) {
    const fs::path build = o.build_dir, tmpl = view_template(o);
    std::error_code ec;
    fs::remove_all(tmpl, ec);
    o.build_private = {"grading", "graded", "graders"};
    o.build_shared.clear();
    o.build_hidden.clear();
    try {
        fs::create_directories(tmpl / "grading" / "slots");
        fs::create_directories(tmpl / "graders");
        for (auto it = fs::recursive_directory_iterator(build, fs::directory_options::skip_permission_denied);
             it != fs::recursive_directory_iterator(); ++it) {
            if (!it->is_directory() || it->is_symlink()) continue;
            const std::string name = it->path().filename().string();
            std::smatch m;
            if (std::regex_match(name, kReferenceTargetDir) || (it.depth() == 0 && name == "bench")) {
                it.disable_recursion_pending();
                o.build_hidden.push_back(it->path().lexically_relative(build).string());
                continue;
            }
            if (!std::regex_match(name, m, kSlotTargetDir)) {
                // Not into what the private folders cover anyway.
                if (it.depth() == 0 && (name == "grading" || name == "graded" || name == "graders")) it.disable_recursion_pending();
                continue;
            }
            it.disable_recursion_pending();
            const fs::path rel = it->path().lexically_relative(build);
            if (std::stoi(m[1]) == kSandboxSlot) {
                copy_pristine(it->path(), tmpl / rel);
                o.build_private.push_back(rel.string());
                // The folder the slot assembles its source in (graded/<target>), for the lab program itself.
                if (!m[2].matched) fs::create_directories(tmpl / "graded" / name.substr(0, name.size() - 4));
            } else if (fs::is_directory(it->path() / "__")) {
                o.build_hidden.push_back((rel / "__").string());  // another slot's objects: some submission's code
            }
        }
        for (const auto& e : fs::directory_iterator(build / "graders")) {
            const std::string name = e.path().filename().string();
            if (e.is_regular_file() && !std::regex_match(name, kSubmissionProgram)) o.build_shared.push_back("graders/" + name);
        }
    } catch (const std::exception& e) {
        return std::string("cannot read the build folder ") + build.string() + ": " + e.what();
    }
    if (o.build_private.size() == 3) return "the build folder " + build.string() + " has no grading slots (lab*_slot1)";
    return "";
}

std::string build_copy(const std::string& job_dir) { return job_dir + ".build"; }

void prepare_job(const WorkerOptions& o, const std::string& job_dir, bool keep_build) {
    const fs::path dir = job_dir, copy = build_copy(job_dir);
    std::error_code ec;
    fs::remove_all(dir, ec);
    for (const char* sub : {"labs", "out", "home"}) fs::create_directories(dir / sub);
    // The report files exist before the grading: in the sandbox each is a file bound on a read-only
    // folder, which the grader can write but nothing can replace with a link, a pipe or a folder.
    for (const char* f : kReportFiles) std::ofstream(dir / "out" / f, std::ios::binary);
    if (!o.sandbox) {
        fs::create_directories(fs::path(o.build_dir) / "grading" / "slots");
        return;
    }
    if (!keep_build || !fs::is_directory(copy / "graded")) {
        fs::remove_all(copy, ec);
        fs::copy(view_template(o), copy, fs::copy_options::recursive);
    }
    fs::remove_all(copy / "grading", ec);  // logs and staged sources: never the last grading's
    fs::copy(view_template(o) / "grading", copy / "grading", fs::copy_options::recursive);
}

std::vector<std::string> sandbox_args(const WorkerOptions& o, const std::string& job_dir, int gpu) {
    std::vector<std::string> a = {o.bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--proc", "/proc",
                                  "--dev", "/dev", "--tmpfs", "/tmp"};
    system_view(a);
    a.insert(a.end(), {"--ro-bind", o.course_dir, o.course_dir});
    // Of the course, what a student release holds: not the reference solutions, nor the known-wrong and
    // correct variants of each lab (complete kernels, some of them right), nor the folders whose names
    // start with a dot (.git's history, the scripts and packages of .ci and .debs), nor other build
    // folders in it (another roster's slots).
    std::error_code ec;
    const fs::path course = o.course_dir, build = o.build_dir;
    for (const auto& e : fs::directory_iterator(course, ec)) {
        if (!e.is_directory() || fs::equivalent(e.path(), build, ec)) continue;
        const std::string name = e.path().filename().string();
        if (name == "solutions" || name.front() == '.' || fs::exists(e.path() / "CMakeCache.txt"))
            a.insert(a.end(), {"--tmpfs", e.path().string()});
    }
    for (const auto& lab : fs::directory_iterator(course / "autograder" / "labs", ec))
        for (const char* variants : {"correct", "wrong"})
            if (fs::is_directory(lab.path() / variants, ec)) a.insert(a.end(), {"--tmpfs", (lab.path() / variants).string()});
    // The build folder read-only: a grading cannot change the programs every later grading runs. What one
    // grading writes (its logs and slots, the slot's assembled sources, objects and programs) are fresh
    // copies of a pristine template, its own, bound over it; the programs gradings share (the peers'
    // launch hosts) are bound read-only into its own graders/; other slots' objects are hidden.
    a.insert(a.end(), {"--ro-bind", o.build_dir, o.build_dir});
    for (const auto& rel : o.build_private)
        a.insert(a.end(), {"--bind", (fs::path(build_copy(job_dir)) / rel).string(), (build / rel).string()});
    for (const auto& rel : o.build_shared) a.insert(a.end(), {"--ro-bind", (build / rel).string(), (build / rel).string()});
    for (const auto& rel : o.build_hidden) a.insert(a.end(), {"--tmpfs", (build / rel).string()});
    // The submission is always at the same place (the grader's messages name /submission/labs/...), read-
    // only; home/ is the grading's scratch; out/ is a read-only folder of the report files, each bound.
    const fs::path job = job_dir, seen = kSandboxJobDir;
    a.insert(a.end(), {"--tmpfs", seen.string(), "--ro-bind", (job / "labs").string(), (seen / "labs").string(), "--bind",
                       (job / "home").string(), (seen / "home").string(), "--dir", (seen / "out").string()});
    for (const char* f : kReportFiles) a.insert(a.end(), {"--bind", (job / "out" / f).string(), (seen / "out" / f).string()});
    a.insert(a.end(), {"--remount-ro", seen.string(), "--chdir", seen.string()});
    if (gpu >= 0) {
        a.insert(a.end(), {"--dev-bind", "/dev/nvidia" + std::to_string(gpu), "/dev/nvidia" + std::to_string(gpu)});
        for (const char* n : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset"})
            a.insert(a.end(), {"--dev-bind-try", n, n});
        // What the driver's library reads of the system (the GPUs' PCI devices), read-only.
        for (const char* s : {"/sys/bus/pci", "/sys/devices", "/sys/module/nvidia"}) a.insert(a.end(), {"--ro-bind-try", s, s});
        // Other grade processes on this GPU (an instructor's own, whatever it calls the GPU) take the same lock.
        // The lock and its gate (locks.hpp's take_gpu: a measurement waiting goes before memory checks).
        const std::string lock = worker_gpu_lock(gpu);
        for (const std::string& f : {lock, grading::gpu_lock_gate(lock)}) {
            ::close(::open(f.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0666));
            a.insert(a.end(), {"--bind", f, f});
        }
        // And the machine's Nsight Compute lock: one profiler at a time, whatever the GPU (locks.hpp).
        ::close(::open(grading::kNsightComputeLock, O_CREAT | O_RDWR | O_CLOEXEC, 0666));
        a.insert(a.end(), {"--bind", grading::kNsightComputeLock, grading::kNsightComputeLock});
    }
    a.push_back("--");
    return a;
}

namespace {
// The driver's folder of the GPU at /dev/nvidia<minor>: /proc/driver/nvidia/gpus/<PCI address>, whose
// information file names the minor number and the model. Empty when the driver lists no such GPU.
fs::path driver_gpu_dir(int minor, std::string* information = nullptr) {
    std::error_code ec;
    const std::regex dev(R"(Device Minor:\s*([0-9]+))");
    for (const auto& e : fs::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
        std::string info = read_all(e.path() / "information");
        std::smatch d;
        if (std::regex_search(info, d, dev) && std::stoi(d[1]) == minor) {
            if (information) *information = std::move(info);
            return e.path();
        }
    }
    return {};
}
}  // namespace

std::string uuid_from_information(const std::string& information) {
    const std::regex uuid(R"(GPU UUID:\s*(GPU-[0-9A-Fa-f-]+))");
    std::smatch m;
    return std::regex_search(information, m, uuid) ? std::string(m[1]) : std::string();
}

std::string cuda_visible_devices(int minor, const std::string& uuid) { return uuid.empty() ? std::to_string(minor) : uuid; }

std::string gpu_model(int minor) {
    std::string info;
    const std::regex model(R"(Model:\s*(.*\S))");
    std::smatch m;
    if (!driver_gpu_dir(minor, &info).empty() && std::regex_search(info, m, model)) return m[1];
    return "GPU " + std::to_string(minor);
}

Workers::Workers(Store& store, WorkerOptions options, const std::vector<int>& gpus, int cpu_workers)
    : store_(store), o_(std::move(options)), view_made_(o_.shared_built_at) {
    if (!gpus.empty())
        for (int g : gpus)
            info_.push_back({o_.name_prefix + "gpu" + std::to_string(g), g, gpu_model(g) + " (/dev/nvidia" + std::to_string(g) + ")"});
    else
        for (int i = 0; i < cpu_workers; ++i)
            info_.push_back({o_.name_prefix + "cpu" + std::to_string(i), -1, "none: builds and audits only"});
    for (const auto& w : info_) threads_.emplace_back([this, w] { run(w.name, w.gpu); });
}

Workers::~Workers() { stop(); }

void Workers::notify() { cv_.notify_one(); }

void Workers::stop() {
    {
        std::lock_guard<std::mutex> lock(m_);  // a worker about to wait sees it, or is woken
        stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    std::error_code ec;
    for (const auto& root : o_.cgroup_roots) {
        for (const auto& w : info_) fs::remove(fs::path(root) / w.name, ec);
        fs::remove(root, ec);  // v2 keeps the server's own leaf, and so this folder, while the server runs
    }
}

void Workers::run(const std::string& name, int gpu) {
    while (!stopping_) {
        // The options first: while the shared programs do not build, nothing is claimed.
        const std::optional<WorkerOptions> o = fresh_options();
        std::optional<Job> job;
        try {
            if (o) job = store_.claim(name);
        } catch (const std::exception& e) {
            std::cerr << "course-server: " << name << ": " << e.what() << "\n";
        }
        if (!job) {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait_for(lock, std::chrono::seconds(o ? 1 : 5));
            continue;
        }
        grade(*job, name, gpu, *o);
    }
}

std::string worker_gpu_lock(int minor) {
    const std::string lock = grading::gpu_lock_for_bus_id(driver_gpu_dir(minor).filename().string());
    return lock.empty() ? "/tmp/course-grader-gpu-" + std::to_string(minor) + ".lock" : lock;
}

std::vector<std::string> grader_command(const WorkerOptions& o, const std::string& job_dir, const std::vector<std::string>& labs,
                                        int gpu) {
    const fs::path seen = o.sandbox ? fs::path(kSandboxJobDir) : fs::path(job_dir);  // the folder as the grader sees it
    std::vector<std::string> argv = {o.grade, "--build-dir", o.build_dir, "--labs-dir", (seen / "labs").string(), "--results",
                                     (seen / "out" / "results.json").string(), "--junit", (seen / "out" / "junit.xml").string()};
    // The GPU's own lock, named as every grade process names it, wherever the grading runs (inside the
    // sandbox the same file is bound at the same path).
    if (gpu >= 0) argv.insert(argv.end(), {"--gpu-lock", worker_gpu_lock(gpu)});
    for (const auto& l : labs) argv.insert(argv.end(), {"--lab", l});
    if (o.no_gpu) argv.push_back("--allow-no-gpu");
    argv.insert(argv.end(), o.grade_args.begin(), o.grade_args.end());
    return argv;
}

std::vector<std::string> grading_env(const WorkerOptions& o, const std::string& job_dir, int gpu) {
    const fs::path seen = o.sandbox ? fs::path(kSandboxJobDir) : fs::path(job_dir);
    std::vector<std::string> env = {"PATH=/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + (seen / "home").string(),
                                    "LANG=C.UTF-8", "CUDA_DEVICE_ORDER=PCI_BUS_ID"};
    std::string information;
    if (gpu >= 0) driver_gpu_dir(gpu, &information);
    env.push_back("CUDA_VISIBLE_DEVICES=" + (gpu >= 0 ? cuda_visible_devices(gpu, uuid_from_information(information)) : ""));
    if (!o.sandbox) env.push_back("TMPDIR=" + (seen / "home").string());
    return env;
}

std::string read_report(const std::string& job_dir, const std::string& name) {
    // Only the regular file the worker made (prepare_job): a link there is never followed out of the folder.
    const int dir = ::open((fs::path(job_dir) / "out").c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir < 0) return "";
    const int fd = ::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    ::close(dir);
    if (fd < 0) return "";
    std::string text;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        char buf[65536];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0 && text.size() < (64u << 20);) text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

RunEnd run_sandboxed(const WorkerOptions& o, const std::string& job_dir, int gpu, const std::string& cgroup_name,
                     const std::vector<std::string>& command, const std::vector<std::string>& env,
                     const std::function<void(const char*, std::size_t)>& output, const std::function<bool()>& stop) {
    RunEnd end;
    std::vector<std::string> argv;
    if (o.sandbox) argv = sandbox_args(o, job_dir, gpu);
    argv.insert(argv.end(), command.begin(), command.end());
    // The grading's cgroup, emptied of anything an earlier one left, with this grading's limits.
    std::vector<std::string> join;
    const rlim_t mib = 1 << 20;
    for (const auto& root : o.cgroup_roots) {
        const fs::path cg = fs::path(root) / cgroup_name;
        std::error_code ec;
        fs::create_directories(cg, ec);
        kill_cgroup(cg);
        const std::string bytes = std::to_string(static_cast<unsigned long long>(o.memory_mb) * mib);
        if (fs::exists(cg / "pids.max")) write_file(cg / "pids.max", std::to_string(o.max_procs));
        if (fs::exists(cg / "memory.max")) {
            write_file(cg / "memory.max", o.memory_mb > 0 ? bytes : "max");
            write_file(cg / "memory.swap.max", "0");
        }
        if (fs::exists(cg / "memory.limit_in_bytes")) {
            write_file(cg / "memory.limit_in_bytes", o.memory_mb > 0 ? bytes : "-1");
            write_file(cg / "memory.memsw.limit_in_bytes", o.memory_mb > 0 ? bytes : "-1");  // no swap beyond it (where accounted)
        }
        join.push_back((cg / "cgroup.procs").string());
    }
    // Everything the child needs is made before fork: after it, only async-signal-safe calls.
    std::vector<char*> cargv, cenv;
    for (auto& s : argv) cargv.push_back(const_cast<char*>(s.c_str()));
    cargv.push_back(nullptr);
    for (auto& s : env) cenv.push_back(const_cast<char*>(s.c_str()));
    cenv.push_back(nullptr);
    const bool root = ::geteuid() == 0;
    const bool cgroup = !o.cgroup_roots.empty();

    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0) {
        end.started = false;
        return end;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server gone, its gradings go too
        // Into the grading's cgroup before anything runs; a grading that cannot join is not run unlimited.
        for (const auto& procs : join) {
            const int fd = ::open(procs.c_str(), O_WRONLY | O_CLOEXEC);
            if (fd < 0 || ::write(fd, "0", 1) != 1) ::_exit(125);
            ::close(fd);
        }
        const auto limit = [](int what, rlim_t v) {
            const rlimit r{v, v};
            ::setrlimit(what, &r);
        };
        limit(RLIMIT_CORE, 0);
        limit(RLIMIT_FSIZE, static_cast<rlim_t>(o.max_file_mb) * mib);
        limit(RLIMIT_NOFILE, 4096);
        if (!root) limit(RLIMIT_NPROC, static_cast<rlim_t>(o.max_procs));  // root is not held by it: the cgroup is
        if (!cgroup && gpu < 0 && o.memory_mb > 0) limit(RLIMIT_AS, static_cast<rlim_t>(o.memory_mb) * mib);
        const int null = ::open("/dev/null", O_RDONLY);
        ::dup2(null, 0);
        ::dup2(out[1], 1);
        ::dup2(out[1], 2);
        // Nothing of the server (its listening socket, the database) reaches the grading.
        for (int fd = 3; fd < 4096; ++fd) ::close(fd);
        if (::chdir(job_dir.c_str()) != 0) ::_exit(127);
        ::execve(cargv[0], cargv.data(), cenv.data());
        ::_exit(127);
    }
    ::close(out[1]);
    if (pid < 0) {
        ::close(out[0]);
        end.started = false;
        return end;
    }
    bool reaped = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.timeout_s);
    for (;;) {
        pollfd p{out[0], POLLIN, 0};
        const int r = ::poll(&p, 1, 500);
        if (r > 0) {
            char buf[65536];
            const ssize_t n = ::read(out[0], buf, sizeof buf);
            if (n <= 0) break;
            output(buf, static_cast<std::size_t>(n));
        }
        // The grader gone (killed, say) while something it started still holds the pipe open.
        if (r == 0 && ::waitpid(pid, &end.status, WNOHANG) == pid) {
            reaped = true;
            break;
        }
        const bool stopping = stop();
        if (stopping || std::chrono::steady_clock::now() > deadline) {
            end.stopped = stopping;
            end.timed_out = !stopping;
            ::kill(-pid, SIGKILL);
            break;
        }
    }
    ::close(out[0]);
    while (!reaped && ::waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {}
    ::kill(-pid, SIGKILL);  // anything the grading left running
    for (const auto& root : o.cgroup_roots) kill_cgroup(fs::path(root) / cgroup_name);
    return end;
}

// The newest change to what the build's shared programs are made from.
fs::file_time_type newest_source(const fs::path& course) {
    fs::file_time_type newest = fs::file_time_type::min();  // not {}: the file clock's zero is in 2174 (libstdc++)
    std::error_code ec;
    for (const char* top : {"CMakeLists.txt", "cmake", "common", "autograder", "labs"}) {
        const fs::path p = course / top;
        if (fs::is_regular_file(p, ec)) newest = std::max(newest, fs::last_write_time(p, ec));
        for (auto it = fs::recursive_directory_iterator(p, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec)) newest = std::max(newest, it->last_write_time(ec));
    }
    return newest;
}

namespace {
constexpr double kSourcesCheckS = 2.0;
}  // namespace

std::optional<WorkerOptions> Workers::fresh_options() {
    std::lock_guard<std::mutex> lock(view_m_);
    // The course's sources looked at once every kSourcesCheckS at most: idle workers ask every second.
    const auto now = std::chrono::steady_clock::now();
    if (o_.sandbox && o_.rebuild_shared && now - sources_checked_ >= std::chrono::duration<double>(kSourcesCheckS)) {
        sources_checked_ = now;
        newest_seen_ = newest_source(o_.course_dir);
    }
    if (const auto newest = newest_seen_; o_.sandbox && o_.rebuild_shared && newest > view_made_) {
        view_made_ = std::max(newest, fs::file_time_type::clock::now());  // a file dated ahead: once
        std::cerr << "course-server: the course changed since the shared programs were built: building them again\n";
        shared_broken_ = !o_.rebuild_shared();
        if (shared_broken_)
            std::cerr << "course-server: WARNING: the gradings' shared programs do not build (see the build folder's "
                         "grading/service-prepare.log): no grading starts until the course changes and they build; "
                         "queued submissions wait\n";
        else if (const std::string why = prepare_build_view(o_); !why.empty())
            std::cerr << "course-server: " << why << "\n";
    }
    if (shared_broken_) return std::nullopt;
    return o_;
}

void Workers::grade(const Job& job, const std::string& name, int gpu, const WorkerOptions& o) {
    // The worker's own folder, emptied for each grading: without a sandbox too, the submission's path is
    // the same from one grading to the next. @p o: this grading's options, the build's view as it was when
    // it began.
    const fs::path dir = fs::path(o.scratch) / name;
    std::error_code ec;
    try {
        std::lock_guard<std::mutex> lock(view_m_);  // the template is not remade while it is copied
        // A GPU worker's copy of the build is fresh for every grading: the student's code ran in the last
        // one, and could have left anything in it. A build-only worker keeps its own from one grading to
        // the next (an unchanged lab is not compiled again), as nothing of a submission runs there: only
        // the build tools and the audit wrote in it.
        const auto kept = copy_made_.find(name);
        prepare_job(o, dir.string(), o.no_gpu && kept != copy_made_.end() && kept->second == view_made_);
        copy_made_[name] = view_made_;
    } catch (const std::exception& e) {
        store_.interrupted(job.id, job.claim, std::string("the worker could not prepare the grading: ") + e.what(), o.max_attempts);
        return;
    }
    // A copy of the student's files: the grader only reads them, and the stored ones are never touched.
    std::vector<std::string> labs;
    for (const auto& f : job.files) {
        fs::create_directories(dir / "labs" / f.lab_dir);
        std::ofstream(dir / "labs" / f.lab_dir / f.name, std::ios::binary) << f.content;
        labs.push_back(f.lab_id);
    }
    std::cerr << "course-server: " << name << " grades submission " << job.id << " (attempt " << job.attempt << ")\n";
    std::string output;
    bool grading = false;
    // The claim's lease is renewed while the grading runs; a claim found no longer this worker's (its
    // lease ran out and another worker took the submission) stops the grading.
    auto renewed = std::chrono::steady_clock::now();
    bool lost = false;
    const auto keep_claim = [&] {
        if (std::chrono::steady_clock::now() - renewed < std::chrono::duration<double>(o.renew_s)) return true;
        renewed = std::chrono::steady_clock::now();
        try {
            lost = !store_.renew(job.id, job.claim);
        } catch (const std::exception& e) {
            std::cerr << "course-server: " << name << ": renewing the claim of submission " << job.id << ": " << e.what() << "\n";
        }
        return !lost;
    };
    const RunEnd end = run_sandboxed(
        o, dir.string(), gpu, name, grader_command(o, dir.string(), labs, gpu), grading_env(o, dir.string(), gpu),
        [&](const char* data, std::size_t n) {
            if (output.size() < kMaxOutput) output.append(data, n);
            // The checks begin once every lab is built: the stage a student sees moves on.
            if (!grading && output.find("checking...") != std::string::npos) {
                grading = true;
                store_.set_grading(job.id, job.claim);
            }
        },
        [&] { return stopping_.load() || !keep_claim(); });
    if (output.size() >= kMaxOutput) output += "\n[output cut at 4 MiB]\n";
    const int status = end.status;

    if (!end.started) {
        store_.interrupted(job.id, job.claim, "the worker could not start the grader (pipe or fork)", o.max_attempts);
    } else if (end.stopped && lost) {
        std::cerr << "course-server: " << name << ": submission " << job.id << " was claimed again after its lease ran out\n";
    } else if (end.stopped) {
        store_.release(job.id, job.claim);
    } else if (end.timed_out) {
        store_.interrupted(job.id, job.claim, "the grading took longer than " + std::to_string(static_cast<int>(o.timeout_s)) + " s",
                           o.max_attempts);
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == kGradeCannotGrade && !grading) {
        // grade found no usable GPU (or a tool it needs) before any check began, so before any of the
        // student's code ran: the machine's doing, not the submission's. It goes back to the queue, charged
        // nothing, and this worker claims nothing for a while (another may take it meanwhile).
        std::cerr << "course-server: WARNING: " << name << " cannot grade here (grade exited 77 before any check): "
                  << output.substr(0, 600) << "\ncourse-server: submission " << job.id
                  << " goes back to the queue, uncharged; " << name << " claims nothing for " << kCannotGradePauseS
                  << " s\n";
        store_.release(job.id, job.claim);
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait_for(lock, std::chrono::seconds(kCannotGradePauseS), [this] { return stopping_.load(); });
    } else if (WIFEXITED(status) && is_result(WEXITSTATUS(status))) {
        // Only grade can have written these: it writes them last, after every process that ran the
        // student's code has ended (a launch host cannot fork, exec or leave its process group, and its
        // check program kills and reaps it); and in the sandbox each is a file bound on a read-only folder,
        // which nothing could replace by a link or a pipe, and which grade's open truncates.
        const std::string results = read_report(dir.string(), "results.json");
        // The page grade wrote beside results.json (report_html.cpp), kept as the submission's report.
        const std::string report = read_report(dir.string(), "report.html");
        if (!store_.finish(job.id, job.claim, WEXITSTATUS(status), output, results, report))
            std::cerr << "course-server: submission " << job.id << " was no longer " << name << "'s to finish\n";
    } else {
        const std::string why = WIFSIGNALED(status) ? "the grading process was killed (signal " + std::to_string(WTERMSIG(status)) + ")"
                                : WEXITSTATUS(status) == 127 ? "the grader could not be started (exit 127)"
                                : WEXITSTATUS(status) == 125 ? "the grading could not join its cgroup (exit 125)"
                                : "the grader ended with status " + std::to_string(WEXITSTATUS(status)) +
                                      " (77: no usable GPU; 75: the GPU kept busy from outside the grading; 2: a bad "
                                      "command line)";
        std::cerr << "course-server: submission " << job.id << ": " << why << "\n" << output.substr(0, 2000) << "\n";
        store_.interrupted(job.id, job.claim, why, o.max_attempts);
    }
    fs::remove_all(dir, ec);
    if (!o.no_gpu) fs::remove_all(build_copy(dir.string()), ec);
}

}  // namespace service
