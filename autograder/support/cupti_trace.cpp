// Kernel tracing with CUPTI's activity interface (see kernel_trace.hpp): what the check programs and
// the launch hosts share. The technique check that judges a trace is in kernel_trace.cpp.
#include "kernel_trace.hpp"

#include "cuda_check.hpp"

#include <cuda_runtime_api.h>
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

bool trace_begin(std::string* why) {
    static const CUptiResult registered = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (registered != CUPTI_SUCCESS) {
        if (why) *why = cupti_error(registered);
        return false;
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_kernels.clear();
    }
    if (const CUptiResult r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); r != CUPTI_SUCCESS) {
        if (why) *why = cupti_error(r);
        return false;
    }
    return true;
}

std::vector<TracedKernel> trace_end() {
    cudaDeviceSynchronize();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
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

}  // namespace grading
