/// @file device_info.hpp
/// @brief Which GPU is this, and can this build run on it?
///
/// check_gpu() is the first thing every grading program calls: it turns "no
/// GPU", "driver too old" and "this build has no code for this GPU" into one
/// clear sentence and a distinct exit status, instead of a crash at the first
/// kernel launch. DeviceInfo::fingerprint() is printed with every grade so a
/// result can be tied to the hardware and software that produced it.
#pragma once

#include <cstddef>
#include <string>

namespace course {

/// @brief Exit status of a grading program when no usable GPU is present (also ctest's skip code).
inline constexpr int kExitNoGpu = 77;
/// @brief Exit status when a GPU is present but this build cannot use it (driver too old, no code for its architecture).
inline constexpr int kExitUnsupportedGpu = 78;
/// @brief Exit status of a grading whose measurements something outside it kept disturbing (the GPU busy with
/// another process's work, or its performance monitors held by one), so that no verdict could be given.
inline constexpr int kExitGpuDisturbed = 75;

/// @brief Properties of one CUDA device, read from the runtime.
struct DeviceInfo {
    int ordinal = 0;                   ///< device index
    std::string name;                  ///< marketing name, e.g. "NVIDIA H100 80GB HBM3"
    int cc_major = 0;                  ///< compute capability, major
    int cc_minor = 0;                  ///< compute capability, minor
    int sm_count = 0;                  ///< streaming multiprocessors
    int sm_clock_khz = 0;              ///< peak SM clock
    int memory_clock_khz = 0;          ///< peak memory clock
    int memory_bus_bits = 0;           ///< memory bus width
    std::size_t l2_bytes = 0;          ///< L2 cache size
    std::size_t global_memory_bytes = 0;      ///< device memory
    std::size_t shared_per_block_optin = 0;   ///< largest shared memory a block may opt in to
    std::size_t shared_per_sm = 0;            ///< shared memory per SM
    int driver_version = 0;            ///< e.g. 13000 for CUDA 13.0
    int runtime_version = 0;           ///< the CUDA runtime this program was built with

    /// @brief "sm_90" style architecture name.
    std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
    /// @brief Peak DRAM bandwidth from the memory clock and bus width (GB/s; double data rate).
    double theoretical_bandwidth_gbs() const { return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9; }
    /// @brief One line naming the GPU, its capability, size, clocks and the CUDA versions.
    std::string fingerprint() const;
};

/// @brief Reads the properties of device @p ordinal. Throws CudaError when it cannot.
DeviceInfo query_device(int ordinal = 0);

/// @brief The verdict of check_gpu().
enum class GpuStatus {
    Ready,          ///< a GPU is present and this build has code for it
    NoGpu,          ///< no driver, or no CUDA device visible
    DriverTooOld,   ///< the driver is older than the runtime this program was built with
    Unsupported,    ///< the GPU's architecture is below the course minimum, or this build has no code for it
};

/// @brief check_gpu()'s verdict with a sentence for the user.
struct GpuCheck {
    GpuStatus status = GpuStatus::NoGpu;  ///< the verdict
    std::string message;                  ///< what is wrong and what to do (empty when Ready)
    /// @brief The exit status a grading program should return for this verdict (0 when Ready).
    int exit_code() const {
        switch (status) {
        case GpuStatus::Ready: return 0;
        case GpuStatus::NoGpu: return kExitNoGpu;
        default: return kExitUnsupportedGpu;
        }
    }
};

/// @brief Checks that a GPU is present, the driver is recent enough, and a kernel of this build can run on it.
GpuCheck check_gpu(int ordinal = 0);

/// @brief The CUDA architectures this build was compiled for, as CMake saw them (e.g. "75;80;90").
const char* built_architectures();

}  // namespace course
