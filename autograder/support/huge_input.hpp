/// @file huge_input.hpp
/// @brief An input of more than 2^31 elements, made on the GPU, for catching 32-bit index arithmetic.
#pragma once

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grading {

/// @brief Elements past index 2^31 - 1: an `int` index has wrapped (or gone negative) before it gets there.
inline constexpr std::size_t kHugeN = (std::size_t(1) << 31) + 5;

/// @brief The hint of a wrong result at kHugeN.
inline constexpr const char* kHugeIndexHint =
    "an index that does not reach past 2^31 (or 2^32): compute indices in std::size_t (cast before the multiply: "
    "blockIdx.x * std::size_t(blockDim.x)), never int or unsigned";

/// @brief Elements past index 2^32 - 1: an `unsigned` index has wrapped before it gets there.
inline constexpr std::size_t kHugerN = (std::size_t(1) << 32) + 5;

/// @brief The size as a message names it: "2^31 + 5", "2^32 + 5", any 2^k + 5 so (else the number).
inline std::string huge_label(std::size_t n) {
    for (int k = 31; k < 63; ++k)
        if (n == (std::size_t(1) << k) + 5) return "2^" + std::to_string(k) + " + 5";
    return std::to_string(n);
}

/// @brief Whether @p needs bytes of GPU memory were free when grading started (fitted_at_start()); if not,
/// notes that @p what was not run on this GPU, and why.
inline bool run_if_it_fitted(const std::string& what, std::size_t needs) {
    if (fitted_at_start(needs)) return true;
    note(what + " was not run on this GPU: it needs " + std::to_string(needs >> 20) +
         " MiB of GPU memory, which were not free when grading started");
    return false;
}

/// @brief Records that the grader could not allocate @p what, which fitted when grading started (so memory
/// the student's code allocated and did not free is missing): a crash of the submission, never a skip.
/// Call it from the handler of a course::CudaError of cudaErrorMemoryAllocation.
inline void fail_missing_memory(const std::string& what) {
    cudaGetLastError();
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    fail(Failure::Crash,
         "the grader could not allocate " + what +
             ", which fitted when grading started: GPU memory your code allocated and did not free is missing (" +
             std::to_string(free_bytes >> 20) + " MiB free now)",
         "free every buffer your code allocates before it returns");
}

/// @brief run_student() for a call at a size past 2^31 elements: a crash there most likely comes from an index
/// that wrapped, so the failure carries kHugeIndexHint (run_student() then records the crash again, as a
/// note, and ends the process, the context being lost).
inline bool run_student_past_2_31(const std::function<void()>& call, const std::string& what) {
    return run_student(
        [&] {
            try {
                call();
                CUDA_CHECK(cudaDeviceSynchronize());
            } catch (const course::CudaError& e) {
                if (e.is_sticky()) fail(Failure::IllegalMemoryAccess, what + ": " + e.what(), kHugeIndexHint);
                throw;
            }
        },
        what);
}

/// @brief @p n floats on the GPU (kHugeN: 8 GiB; kHugerN: 16 GiB), every byte @p fill_byte, then each
/// (index, value) of @p planted written; nullopt, with a note saying why, when the GPU had not the memory
/// free when grading started (the check then judges the other sizes only). Nothing goes through the host
/// but the planted values.
inline std::optional<course::DeviceBuffer<float>> huge_input(std::size_t n, unsigned char fill_byte,
                                                             const std::vector<std::pair<std::size_t, float>>& planted) {
    const std::size_t needs = n * sizeof(float) + (std::size_t(1) << 30);  // with 1 GiB to spare
    if (!run_if_it_fitted("the size " + huge_label(n), needs)) return std::nullopt;
    try {
        course::DeviceBuffer<float> d(n);  // exactly n: a read past the end is outside it
        d.fill_bytes(fill_byte);
        for (const auto& [i, v] : planted) CUDA_CHECK(cudaMemcpy(d.data() + i, &v, sizeof v, cudaMemcpyHostToDevice));
        return d;
    } catch (const course::CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation) throw;
        fail_missing_memory("the input of " + huge_label(n) + " elements");
        return std::nullopt;
    }
}

/// @brief huge_input() of kHugeN elements.
inline std::optional<course::DeviceBuffer<float>> huge_input(unsigned char fill_byte,
                                                             const std::vector<std::pair<std::size_t, float>>& planted) {
    return huge_input(kHugeN, fill_byte, planted);
}

}  // namespace grading
