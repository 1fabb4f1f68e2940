// The technique check of the shared-memory labs, judged on a kernel trace (see kernel_trace.hpp).
#include "kernel_trace.hpp"

#include "cuda_check.hpp"
#include "grading.hpp"
#include "isolation.hpp"

#include <cuda_runtime_api.h>

namespace grading {

std::optional<std::vector<TracedKernel>> trace_kernels(const std::function<void()>& work, std::string* why) {
    if (isolation::enabled()) return isolation::trace(work, why, nullptr);
    if (!trace_begin(why)) return std::nullopt;
    try {
        work();
    } catch (...) {
        trace_end();  // the trace stops whatever work did
        throw;
    }
    return trace_end();
}

void check_shared_memory_technique(const std::string& lab_id, const std::function<void()>& call, const std::string& what,
                                   const void* graded_kernel, const std::string& hint) {
    std::string why;
    bool ran = false;
    int graded_smem = -1;  // as the student's process reports it, where that process runs the code
    const auto kernels = isolation::enabled()
                             ? isolation::trace([&] { ran = run_student(call, what); }, &why, &graded_smem)
                             : trace_kernels([&] { ran = run_student(call, what); }, &why);
    if (!ran) return;  // the failure is recorded
    if (!kernels) {
        if (!isolation::enabled()) {
            cudaFuncAttributes attr{};
            CUDA_CHECK(cudaFuncGetAttributes(&attr, graded_kernel));
            graded_smem = static_cast<int>(attr.sharedSizeBytes);
        }
        note("CUPTI cannot trace kernels here (" + why + "): judged by the graded kernel's static shared memory, " +
             std::to_string(graded_smem) + " bytes");
        if (graded_smem <= 0)
            fail(Failure::TechniqueNotUsed, "the graded kernel declares no __shared__ memory", hint);
        return;
    }
    const std::string ns = "lab" + lab_id + "::";
    double total = 0.0, with_shared = 0.0;
    std::string foreign;
    for (const auto& k : *kernels) {
        note(k.name + ": " + std::to_string(k.static_smem) + " B static + " + std::to_string(k.dynamic_smem) +
             " B dynamic shared memory, " + fixed(k.ms, 3) + " ms");
        // The lab's own kernels: in its namespace (after a return type such as "void "), and not its baselines.
        const auto at = k.name.find(ns);
        const bool own = at != std::string::npos && k.name.find("(", 0) > at && k.name.find(ns + "baseline::") == std::string::npos;
        if (!own) {
            foreign += (foreign.empty() ? "" : ", ") + k.name;
            continue;
        }
        total += k.ms;
        if (k.uses_shared_memory()) with_shared += k.ms;
    }
    if (!foreign.empty()) {
        fail(Failure::TechniqueNotUsed, what + " launched kernels that are not the lab's own: " + foreign, hint);
        return;
    }
    if (kernels->empty() || total <= 0.0) {
        fail(Failure::TechniqueNotUsed, what + " launched no kernel: the work was not done on the GPU by your kernels",
             hint);
        return;
    }
    const double share = with_shared / total;
    note("kernels with shared memory took " + fixed(100.0 * share, 0) + "% of the GPU time of " + what);
    if (share < 0.5)
        fail(Failure::TechniqueNotUsed,
             "kernels with __shared__ memory took only " + fixed(100.0 * share, 0) + "% of the GPU time of " + what +
                 "; the work must go through shared memory",
             hint);
}

}  // namespace grading
