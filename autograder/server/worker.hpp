/// @file worker.hpp
/// @brief The workers: threads that claim queued submissions and grade each one as `grade --labs-dir`
/// does, by running the grader on a copy of the submission's files, in a sandbox.
///
/// One worker a visible GPU (its grader sees only that GPU), or, without a GPU, as many as asked that
/// build and audit only (`grade --allow-no-gpu`). With bubblewrap, each grading runs with no network, a
/// read-only view of the course and of the system, a private scratch folder, the build folder the grader
/// builds in, and no view of the database, the tokens or other submissions; under time, file-size,
/// memory (without a GPU) and process limits.
#pragma once

#include "store.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
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
    long memory_mb = 16384;   ///< address-space limit of a grading without a GPU (CUDA reserves more)
    long max_procs = 512;     ///< processes of the grading's user (not applied to root)
    long max_file_mb = 1024;  ///< the largest file a grading may write
};

/// @brief The GPU device numbers of /dev/nvidiaN, in order.
std::vector<int> visible_gpus();

/// @brief The bubblewrap arguments that sandbox one grading whose folder is @p job_dir, on GPU @p gpu
/// (-1: none). Everything it may see is named here.
std::vector<std::string> sandbox_args(const WorkerOptions& o, const std::string& job_dir, int gpu);

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
    void grade(const Job& job, const std::string& name, int gpu);

    Store& store_;
    WorkerOptions o_;
    std::atomic<bool> stopping_{false};
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<WorkerInfo> info_;
    std::vector<std::thread> threads_;
};

}  // namespace service
