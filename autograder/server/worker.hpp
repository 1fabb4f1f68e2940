/// @file worker.hpp
/// @brief The workers: threads that claim queued submissions and grade each one as `grade --labs-dir`
/// does, by running the grader on a copy of the submission's files, in a sandbox.
///
/// One worker a visible GPU (its grader sees only that GPU), or, without a GPU, as many as asked that
/// build and audit only (`grade --allow-no-gpu`). With bubblewrap, each grading runs with no network, a
/// read-only view of the course, of the system and of the build folder, private copies of the few parts
/// of the build folder a grading writes, a private scratch folder, and no view of the database, the
/// tokens or other submissions; under time, file-size, memory and process limits (a cgroup of its own
/// where the server can make one, rlimits otherwise).
#pragma once

#include "store.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace service {

struct WorkerOptions {
    std::string grade;       ///< the grader program (grade)
    std::string build_dir;   ///< its build folder (--build-dir)
    std::string course_dir;  ///< the course's sources, which the build reads
    std::string scratch;     ///< where each grading's folder is made
    std::vector<std::string> grade_args;  ///< more options for every grading (e.g. --profile require)
    bool no_gpu = false;     ///< build and audit only
    bool sandbox = true;     ///< run the grader under bubblewrap
    std::string bwrap = "bwrap";
    double timeout_s = 1800;  ///< a grading's wall-clock limit
    int max_attempts = 2;     ///< interrupted attempts before a submission is not graded
    double renew_s = 20;      ///< how often a grading renews its claim's lease (Store::renew)
    std::string name_prefix;  ///< put before each worker's name ("host/": workers of several hosts share a store)
    long memory_mb = 16384;   ///< a grading's memory: its cgroup's limit, else an address-space limit without a GPU
    long max_procs = 512;     ///< a grading's processes: its cgroup's limit, else RLIMIT_NPROC (not for root)
    long max_file_mb = 1024;  ///< the largest file a grading may write
    /// Set by limits_at_start: the folders gradings' cgroups are made in (v2: one; v1: the pids and the
    /// memory hierarchy's); none: rlimits only.
    std::vector<std::string> cgroup_roots;
    // Set by prepare_build_view, relative to build_dir: what a grading writes (its own fresh copies), the
    // programs gradings share (read-only), and what no grading may see (other slots' objects).
    std::vector<std::string> build_private, build_shared, build_hidden;
    /// Builds again what gradings share, which they cannot (the build folder is read-only to them): called
    /// before a grading when the course's sources changed since (main.cpp's prepare_build).
    std::function<bool()> rebuild_shared;
    /// When they were last built: sources changed after it are built again before the next grading.
    std::filesystem::file_time_type shared_built_at = std::filesystem::file_time_type::clock::now();
};

/// @brief The GPU device numbers of /dev/nvidiaN, in order.
std::vector<int> visible_gpus();

/// @brief Chooses how a grading's process and memory limits are enforced, sets o.cgroup_roots, and says which
/// in one line for the server's log: a cgroup a grading (v2, or v1's pids and memory controllers) where
/// this process can make them, else rlimits, with what they miss.
std::string limits_at_start(WorkerOptions& o);

/// @brief What of the build folder a grading writes, found at start (the CMake targets of grading slot 1,
/// the one a sandboxed grading takes), kept as a pristine template under the scratch folder: each grading
/// gets a fresh copy of it, bound over the read-only build folder. Returns an empty string, or why not.
std::string prepare_build_view(WorkerOptions& o);

/// @brief The bubblewrap arguments that sandbox one grading whose folder is @p job_dir (prepared by
/// prepare_job), on GPU @p gpu (-1: none). Everything it may see is named here.
std::vector<std::string> sandbox_args(const WorkerOptions& o, const std::string& job_dir, int gpu);

/// @brief Empties @p job_dir and makes what a grading needs there: labs/, home/, out/ with its empty
/// report files; and, sandboxed, the copy of the build folder's writable parts beside it (build_copy):
/// a fresh one, or with @p keep_build the worker's copy from its last grading, with only grading/ fresh.
void prepare_job(const WorkerOptions& o, const std::string& job_dir, bool keep_build = false);

/// @brief Where the grading of @p job_dir keeps its copy of the build folder's writable parts.
std::string build_copy(const std::string& job_dir);

/// @brief How a sandboxed command ended.
struct RunEnd {
    int status = 0;         ///< waitpid's status
    bool started = true;    ///< false: no pipe or no fork
    bool timed_out = false;
    bool stopped = false;   ///< @p stop said so
};

/// @brief Runs @p command (the grader, or for a test any program) as a grading runs: in the sandbox of
/// @p job_dir (when o.sandbox), in the grading's cgroup @p cgroup_name (when o.cgroups), under the
/// rlimits, with @p env. @p output gets what it prints, as it comes; @p stop is asked twice a second.
RunEnd run_sandboxed(const WorkerOptions& o, const std::string& job_dir, int gpu, const std::string& cgroup_name,
                     const std::vector<std::string>& command, const std::vector<std::string>& env,
                     const std::function<void(const char*, std::size_t)>& output, const std::function<bool()>& stop);

/// @brief The grader's command line and environment for one grading of @p job_dir (files already in
/// its labs/), as the worker runs it.
std::vector<std::string> grader_command(const WorkerOptions& o, const std::string& job_dir, const std::vector<std::string>& labs,
                                        int gpu = -1);

/// The GPU lock of the GPU at /dev/nvidia<@p minor>: the file every grade process using that GPU takes
/// (locks.hpp, gpu_lock_for_bus_id), found from the PCI address the driver gives the minor number.
std::string worker_gpu_lock(int minor);
/// The environment of a grading on the GPU at /dev/nvidia<@p gpu> (-1: none). The GPU is named to CUDA by
/// its UUID where the driver gives one (cuda_visible_devices()).
std::vector<std::string> grading_env(const WorkerOptions& o, const std::string& job_dir, int gpu);

/// @brief The UUID ("GPU-...") in the driver's information file of a GPU
/// (/proc/driver/nvidia/gpus/<PCI address>/information), or "" when it names none.
std::string uuid_from_information(const std::string& information);

/// @brief CUDA_VISIBLE_DEVICES for a grading on the GPU at /dev/nvidia<@p minor> whose UUID is @p uuid:
/// the UUID, which names that GPU however CUDA numbers the GPUs it sees (in the sandbox only that GPU's
/// device file is there, so CUDA sees one GPU, numbered 0, whatever its minor number: the minor number
/// would name no GPU there but /dev/nvidia0's). Without a UUID, the minor number.
std::string cuda_visible_devices(int minor, const std::string& uuid);

/// @brief A report file the grader wrote in @p job_dir's out/ (results.json, report.html), read without
/// following a link; empty when it is not a regular file.
std::string read_report(const std::string& job_dir, const std::string& name);

/// @brief The GPU's model as the driver names it ("NVIDIA H100 80GB HBM3"), or "GPU N" when it cannot tell.
std::string gpu_model(int minor);

/// @brief One worker as the instructor's pages show it.
struct WorkerInfo {
    std::string name;  ///< "gpu0", or "cpu0" without a GPU
    int gpu = -1;
    std::string gpu_model;
};

class Workers {
public:
    /// @brief Starts one worker a GPU of @p gpus, or @p cpu_workers build-only workers when @p gpus is empty.
    Workers(Store& store, WorkerOptions options, const std::vector<int>& gpus, int cpu_workers);
    ~Workers();
    /// @brief A submission was queued: wake an idle worker.
    void notify();
    /// @brief Stops every worker: a grading in progress is killed and its submission queued again.
    void stop();
    /// @brief The workers started, in order.
    const std::vector<WorkerInfo>& info() const { return info_; }

private:
    void run(const std::string& name, int gpu);
    void grade(const Job& job, const std::string& name, int gpu, const WorkerOptions& o);
    /// The options of the next grading, the shared programs built again first when the course changed
    /// since; nothing while they do not build (a grading would then fail to build for a reason not the
    /// submission's, and be charged to it): the worker leaves the queue alone until the course changes.
    std::optional<WorkerOptions> fresh_options();

    Store& store_;
    WorkerOptions o_;
    std::atomic<bool> stopping_{false};
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<WorkerInfo> info_;
    std::vector<std::thread> threads_;
    std::mutex view_m_;  // o_'s view of the build folder, and its template, are remade under it
    std::filesystem::file_time_type view_made_;
    bool shared_broken_ = false;  // the last build of the shared programs failed (guarded by view_m_)
    std::chrono::steady_clock::time_point sources_checked_{};  // when the course's sources were last looked at
    std::filesystem::file_time_type newest_seen_ = std::filesystem::file_time_type::min();  // the newest of them then
    std::map<std::string, std::filesystem::file_time_type> copy_made_;  // a worker's copy: from the view of then
};

}  // namespace service
