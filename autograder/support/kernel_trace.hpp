/// @file kernel_trace.hpp
/// @brief What really ran: the kernels a call launched, recorded by CUPTI (the CUDA profiling interface
/// of the toolkit), with the shared memory each one used and its GPU time. The technique checks judge
/// these kernels, not whichever kernel a lab's code names.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief One kernel launch seen by the trace.
struct TracedKernel {
    std::string name;       ///< demangled, e.g. "void lab01::block_sum_kernel(float const*, float*, unsigned long)"
    int static_smem = 0;    ///< bytes of static __shared__ memory
    int dynamic_smem = 0;   ///< bytes of dynamic (extern __shared__) memory at this launch
    double ms = 0.0;        ///< GPU time of the launch
    unsigned grid[3] = {0, 0, 0};   ///< the launch's grid, in blocks (x, y, z)
    unsigned block[3] = {0, 0, 0};  ///< the launch's block, in threads (x, y, z)
    bool regular = true;            ///< a plain launch: not cooperative, and no thread-block clusters
    /// @brief True when the launch had any shared memory, static or dynamic.
    bool uses_shared_memory() const { return static_smem + dynamic_smem > 0; }
};

/// @brief Runs @p work and returns every kernel it launched, in order; nullopt (with the reason in
/// @p why) where CUPTI cannot trace on this machine.
std::optional<std::vector<TracedKernel>> trace_kernels(const std::function<void()>& work, std::string* why);

/// @brief Starts recording the kernels this process launches (clearing what was recorded); false, with
/// the reason in @p why, where CUPTI cannot trace here. The launch hosts use it; checks use trace_kernels().
bool trace_begin(std::string* why);

/// @brief Stops recording (after waiting for the device) and returns what trace_begin() started recording.
std::vector<TracedKernel> trace_end();

/// @brief The demangled name of the kernel @p func points to, in the form TracedKernel::name has;
/// nullopt where the runtime cannot name it (not a kernel).
std::optional<std::string> kernel_name(const void* func);

/// @brief The technique check of a shared-memory lab: runs @p call (through run_student) under the trace
/// and requires that the lab's own kernels did the work, and that kernels with shared memory took at least
/// half of their GPU time. Fails the current check as technique_not_used otherwise. Where CUPTI cannot
/// trace, falls back to the static shared memory of @p graded_kernel, and says so.
/// @param lab_id "01", ...: the lab's kernels are in namespace labNN (its baselines are not)
/// @param call the student's code to run once, e.g. a lambda that calls the lab's launcher
/// @param what names the call in messages
/// @param graded_kernel the lab's graded kernel, judged by its static shared memory where CUPTI cannot trace
/// @param hint what to do when the check fails
void check_shared_memory_technique(const std::string& lab_id, const std::function<void()>& call, const std::string& what,
                                   const void* graded_kernel, const std::string& hint);

}  // namespace grading
