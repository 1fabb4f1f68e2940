/// @file baselines.cuh
/// @brief What Lab 05's speed is measured against, in the same run: a naive kernel that reads
/// every tap from global memory, and a device-to-device copy; plus a device-side comparison for
/// the benchmark-size correctness gate.
#pragma once

#include <cstddef>

/// @brief Lab 05 baselines.
namespace lab05::baseline {

/// @brief Copies a K x K filter (row by row) into the baseline's own constant memory.
/// @param h_weights host array of K * K floats
/// @param K         3, 5 or 7
void set_filter(const float* h_weights, int K);

/// @brief The textbook first step: one output per thread, all K * K taps read straight from global
/// memory (out-of-image taps skipped), the filter in constant memory. Same convention as
/// lab05::convolve; correct, and the floor the graded kernel must clearly beat.
void naive_convolve(const float* d_in, float* d_out, int width, int height, int K);

/// @brief cudaMemcpyAsync device to device of @p bytes: the memory system's practical limit.
void copy(const void* d_src, void* d_dst, std::size_t bytes);

/// @brief The outcome of compare_on_device().
struct DeviceComparison {
    unsigned long long mismatches = 0;  ///< elements with !(|got - ref| <= atol), NaN included
    std::size_t first = 0;              ///< the smallest mismatching index (valid when mismatches > 0)
    float got = 0.0f;                   ///< got[first]
    float expected = 0.0f;              ///< ref[first]
};

/// @brief Compares two device arrays of @p n floats element by element on the GPU (the benchmark
/// images are too large to copy to the host for every check).
DeviceComparison compare_on_device(const float* d_got, const float* d_ref, std::size_t n, float atol);

}  // namespace lab05::baseline
