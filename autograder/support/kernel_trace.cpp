// Kernel tracing with CUPTI's activity interface (see kernel_trace.hpp).
#include "kernel_trace.hpp"

#include "cuda_check.hpp"
#include "grading.hpp"

#include <cupti.h>
#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <mutex>

namespace grading {

namespace {
std::mutex g_mutex;
std::vector<TracedKernel> g_kernels;

std::string demangled(const char* name) {
    if (!name) return "?";
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && d ? d.get() : name;
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    constexpr size_t kBytes = 1 << 20;
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBytes));
    *size = *buffer ? kBytes : 0;
    *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
    CUpti_Activity* record = nullptr;
    std::lock_guard<std::mutex> lock(g_mutex);
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        TracedKernel t{demangled(k->name), k->staticSharedMemory, k->dynamicSharedMemory,
                       static_cast<double>(k->end - k->start) * 1e-6};
        const int grid[3] = {k->gridX, k->gridY, k->gridZ}, block[3] = {k->blockX, k->blockY, k->blockZ};
        for (int d = 0; d < 3; ++d) {
            t.grid[d] = static_cast<unsigned>(grid[d]);
            t.block[d] = static_cast<unsigned>(block[d]);
        }
        t.regular = k->launchType == CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR && k->clusterX <= 1 && k->clusterY <= 1 &&
                    k->clusterZ <= 1;
        g_kernels.push_back(std::move(t));
    }
    std::free(buffer);
}

std::string cupti_error(CUptiResult r) {
    const char* text = nullptr;
    cuptiGetResultString(r, &text);
    return text ? text : "CUPTI error " + std::to_string(static_cast<int>(r));
}
}  // namespace

std::optional<std::vector<TracedKernel>> trace_kernels(const std::function<void()>& work, std::string* why) {
    static const CUptiResult registered = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (registered != CUPTI_SUCCESS) {
        if (why) *why = cupti_error(registered);
        return std::nullopt;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_kernels.clear();
    }
    if (const CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS) {
        if (why) *why = cupti_error(r);
        return std::nullopt;
    }
    struct Disable {
        ~Disable() {
            cudaDeviceSynchronize();
            cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
            cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        }
    };
    {
        Disable at_end;
        work();
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_kernels;
}

std::optional<std::string> kernel_name(const void* func) {
    const char* name = nullptr;
    if (!func || cudaFuncGetName(&name, func) != cudaSuccess || !name) {
        cudaGetLastError();  // not sticky; leave no error for the next check to find
        return std::nullopt;
    }
    return demangled(name);
}

void check_shared_memory_technique(const std::string& lab_id, const std::function<void()>& call, const std::string& what,
                                   const void* graded_kernel, const std::string& hint) {
    std::string why;
    bool ran = false;
    const auto kernels = trace_kernels([&] { ran = run_student(call, what); }, &why);
    if (!ran) return;  // the failure is recorded
    if (!kernels) {
        cudaFuncAttributes attr{};
        CUDA_CHECK(cudaFuncGetAttributes(&attr, graded_kernel));
        note("CUPTI cannot trace kernels here (" + why + "): judged by the graded kernel's static shared memory, " +
             std::to_string(attr.sharedSizeBytes) + " bytes");
        if (attr.sharedSizeBytes == 0)
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
