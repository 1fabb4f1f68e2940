/// @file cuda_check.hpp
/// @brief Error checking for CUDA runtime calls: one macro, one exception type.
///
/// Every CUDA call in the course goes through CUDA_CHECK. A failure throws
/// course::CudaError carrying the error code, the failing call as written, and
/// its file and line, so the grader can classify it (launch error, illegal
/// memory access, ...) and a student sees exactly which line failed.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>

/// @brief The course's shared helpers (common/): error checking, device buffers, seeded data,
/// comparisons, timing and device information. Lab code, solutions and checks all use them.
namespace course {

/// @brief A failed CUDA runtime call.
class CudaError : public std::runtime_error {
public:
    /// @param code  the error the runtime returned
    /// @param call  the call as written in the source
    /// @param file  source file of the call
    /// @param line  source line of the call
    CudaError(cudaError_t code, const char* call, const char* file, int line)
        : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                             cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
          code_(code) {}

    /// @param code     the error
    /// @param message  the whole message, e.g. as another process reported it
    CudaError(cudaError_t code, const std::string& message) : std::runtime_error(message), code_(code) {}

    /// @brief The CUDA error code.
    cudaError_t code() const noexcept { return code_; }

    /// @brief True for errors that leave the CUDA context unusable (a kernel
    /// crashed); every later CUDA call in the process fails too.
    bool is_sticky() const noexcept { return is_sticky_error(code_); }

    /// @brief True for the errors that a crashed kernel leaves behind.
    static bool is_sticky_error(cudaError_t e) noexcept {
        switch (e) {
        case cudaErrorIllegalAddress:
        case cudaErrorMisalignedAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorAssert:
        case cudaErrorLaunchTimeout:
            return true;
        default:
            return false;
        }
    }

private:
    cudaError_t code_;
};

/// @brief Throws CudaError if @p code is not cudaSuccess. Use CUDA_CHECK instead.
inline void check_cuda(cudaError_t code, const char* call, const char* file, int line) {
    if (code != cudaSuccess) throw CudaError(code, call, file, line);
}

/// @brief Number of blocks of size @p divisor needed to cover @p n items.
template <class T, class U>
constexpr T ceil_div(T n, U divisor) {
    return (n + static_cast<T>(divisor) - 1) / static_cast<T>(divisor);
}

}  // namespace course

/// @brief Checks a CUDA runtime call; throws course::CudaError with file, line and the call on failure.
#define CUDA_CHECK(call) ::course::check_cuda((call), #call, __FILE__, __LINE__)

/// @brief Checks the launch that just happened (bad configuration, no kernel image, ...).
/// Put it right after every `kernel<<<...>>>(...)`.
#define CUDA_CHECK_LAUNCH() ::course::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
