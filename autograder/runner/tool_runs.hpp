/// @file tool_runs.hpp
/// @brief The runner's own items, run under tools: each lab's memory and race check (its workload under
/// compute-sanitizer's tools, all labs side by side) and its Nsight Compute checks (one lab at a time).
/// The judging of what the tools report is in sanitizer.hpp and profile.hpp.
#pragma once

#include "grading_options.hpp"
#include "lab_build.hpp"
#include "sanitizer.hpp"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace grading {

/// The memory and race check of one lab: its workload under each of the rubric's tools. Nothing is timed
/// while these run, so every tool of every lab (of one or several submissions) runs side by side.
struct SanitizerTask {
    const LabJob* job = nullptr;
    LabResult* result = nullptr;  // where the item's result goes
    std::filesystem::path log_dir;
    std::uint64_t seed = 0;
    std::string key;
    std::vector<SanitizerRun> runs;  // one per tool, in the rubric's order
};

/// Adds each lab's sanitizer item to @p results directly when it cannot run (did not build, --sanitizer
/// off, no compute-sanitizer), else a task to @p tasks. @p results must not grow while the tasks live.
void queue_sanitizer(const GradingOptions& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
                     const std::filesystem::path& log_dir, std::uint64_t seed,
                     std::vector<SanitizerTask>& tasks);

/// Runs every tool of every task, at most one process per CPU core, sharing the GPU with other gradings'
/// memory checks (take_gpu, GpuUse::Shared). Returns the wall time.
double run_sanitizer(const GradingOptions& o, std::vector<SanitizerTask>& tasks, std::ostream& out);

/// The Nsight Compute items of each lab that has them (the shared-memory-use check, the bank-conflict
/// check): its profile workload under Nsight Compute, once, one lab at a time (the profiler replays kernels
/// and owns the counters), with the GPU to itself (take_gpu, GpuUse::Measured). A lab's items earn their points only alongside
/// working code, judged by the lab's own checks. Returns the wall time.
double run_profiles(const GradingOptions& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
                    const std::filesystem::path& log_dir, std::uint64_t seed, std::ostream& out);

}  // namespace grading
