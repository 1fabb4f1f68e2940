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

}  // namespace lab05::baseline
