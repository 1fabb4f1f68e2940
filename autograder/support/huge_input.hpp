/// @file huge_input.hpp
/// @brief An input of more than 2^31 elements, made on the GPU, for catching 32-bit index arithmetic.
#pragma once

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grading {

/// @brief Elements past index 2^31 - 1: an `int` index has wrapped (or gone negative) before it gets there.
inline constexpr std::size_t kHugeN = (std::size_t(1) << 31) + 5;

/// @brief The hint of a wrong result at kHugeN.
inline constexpr const char* kHugeIndexHint =
    "an index that does not reach past 2^31: compute indices in std::size_t (cast before the multiply: "
    "blockIdx.x * std::size_t(blockDim.x)), never int or unsigned";

/// @brief kHugeN floats on the GPU (8 GiB), every byte @p fill_byte, then each (index, value) of
/// @p planted written; nullopt, with a note saying why, when the GPU has not the memory to spare (the
/// check then judges the other sizes only). Nothing goes through the host but the planted values.
inline std::optional<course::DeviceBuffer<float>> huge_input(unsigned char fill_byte,
                                                             const std::vector<std::pair<std::size_t, float>>& planted) {
    static_assert(kHugeInputBytes >= kHugeN * sizeof(float), "kHugeInputBytes covers the input");
    if (!huge_inputs_fit()) {
        note("the size 2^31 + 5 was not run on this GPU: it needs " + std::to_string(kHugeInputBytes >> 20) +
             " MiB of GPU memory, which were not free when grading started");
        return std::nullopt;
    }
    try {
        course::DeviceBuffer<float> d(kHugeN);  // exactly kHugeN: a read past the end is outside it
        d.fill_bytes(fill_byte);
        for (const auto& [i, v] : planted) CUDA_CHECK(cudaMemcpy(d.data() + i, &v, sizeof v, cudaMemcpyHostToDevice));
        return d;
    } catch (const course::CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation) throw;
        cudaGetLastError();
        std::size_t free_bytes = 0, total = 0;
        cudaMemGetInfo(&free_bytes, &total);
        fail(Failure::Crash,
             "the grader could not allocate the input of 2^31 + 5 elements, which fitted when grading started: "
             "GPU memory your code allocated and did not free is missing (" + std::to_string(free_bytes >> 20) +
                 " MiB free now)",
             "free every buffer your code allocates before it returns");
        return std::nullopt;
    }
}

}  // namespace grading
