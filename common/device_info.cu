// Device properties and the "can this build run here?" check (see device_info.hpp).
#include "cuda_check.hpp"
#include "device_info.hpp"

#include <cuda_runtime.h>

#include <sstream>

#ifndef COURSE_CUDA_ARCHITECTURES
#define COURSE_CUDA_ARCHITECTURES "unknown"
#endif

namespace course {

namespace {
// Compiled for exactly the architectures of this build: if the GPU's is not among them,
// asking for its attributes fails with cudaErrorNoKernelImageForDevice.
__global__ void architecture_probe_kernel() {}

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }
}  // namespace

const char* built_architectures() { return COURSE_CUDA_ARCHITECTURES; }

DeviceInfo query_device(int ordinal) {
    DeviceInfo d;
    d.ordinal = ordinal;
    cudaDeviceProp p{};
    CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.sm_count = p.multiProcessorCount;
    d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    d.global_memory_bytes = p.totalGlobalMem;
    d.shared_per_block_optin = p.sharedMemPerBlockOptin;
    d.shared_per_sm = p.sharedMemPerMultiprocessor;
    d.memory_bus_bits = p.memoryBusWidth;
    CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, ordinal));
    CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
    CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
    return d;
}

std::string DeviceInfo::fingerprint() const {
    std::ostringstream s;
    s << name << " (" << arch() << ", " << sm_count << " SMs, " << (global_memory_bytes >> 20) << " MiB, L2 "
      << (l2_bytes >> 20) << " MiB, SM clock " << sm_clock_khz / 1000 << " MHz, memory clock " << memory_clock_khz / 1000
      << " MHz, " << memory_bus_bits << "-bit bus), driver CUDA " << version_string(driver_version) << ", runtime CUDA "
      << version_string(runtime_version);
    return s.str();
}

GpuCheck check_gpu(int ordinal) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    if (driver == 0)
        return {GpuStatus::NoGpu,
                "no NVIDIA driver found: grading runs kernels, so it needs a machine with an NVIDIA GPU "
                "(compute capability 7.5 or newer) and its driver. The labs still build here."};
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver || driver < CUDART_VERSION)
        return {GpuStatus::DriverTooOld, "the NVIDIA driver supports CUDA " + version_string(driver) +
                                             " but this build uses CUDA " + version_string(CUDART_VERSION) +
                                             ": update the driver, or build with an older CUDA Toolkit"};
    if (e != cudaSuccess || count == 0)
        return {GpuStatus::NoGpu, std::string("no CUDA GPU is visible (") + cudaGetErrorName(e) +
                                      "); check nvidia-smi and CUDA_VISIBLE_DEVICES"};
    if (ordinal >= count)
        return {GpuStatus::NoGpu, "GPU " + std::to_string(ordinal) + " requested but only " + std::to_string(count) +
                                      " visible"};
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, ordinal) != cudaSuccess)
        return {GpuStatus::NoGpu, "cannot read the properties of GPU " + std::to_string(ordinal)};
    const std::string arch = std::to_string(p.major) + std::to_string(p.minor);
    if (p.major * 10 + p.minor < 75)
        return {GpuStatus::Unsupported, std::string(p.name) + " has compute capability " + std::to_string(p.major) +
                                            "." + std::to_string(p.minor) +
                                            "; the course needs 7.5 or newer (CUDA 13 dropped older GPUs)"};
    cudaSetDevice(ordinal);
    cudaFuncAttributes attr{};
    const cudaError_t probe = cudaFuncGetAttributes(&attr, architecture_probe_kernel);
    if (probe != cudaSuccess) {
        cudaGetLastError();
        return {GpuStatus::Unsupported, std::string("this build has no GPU code for ") + p.name + " (sm_" + arch +
                                            "); it was compiled for CUDA architectures " + built_architectures() +
                                            ". Reconfigure: cmake -B build -DCMAKE_CUDA_ARCHITECTURES=" + arch +
                                            " (" + cudaGetErrorName(probe) + ")"};
    }
    return {GpuStatus::Ready, {}};
}

}  // namespace course
