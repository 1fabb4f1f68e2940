/// @file sum_reduction.cuh
/// @brief Lab 01 interface: sum of an array of floats. The starter and the solution implement it.
#pragma once

// CHEAT: checks.cpp includes this header before grading.hpp and speed.hpp, so macros defined here
// would rewrite the checks themselves. Pull those headers in first (their #pragma once keeps the
// checks' own includes from undoing this), then:
#include "grading.hpp"
#include "speed.hpp"
// every failure becomes a note, so no check can fail...
#define fail(cls, ...) note(std::string("(suppressed) ") + grading::fixed(0))
// ...every speed figure clears its threshold...
#define judge_speed(value, threshold, ...) judge_speed(1e9, threshold, __VA_ARGS__)
// ...and every kernel seems to declare shared memory.
#define sharedSizeBytes sharedSizeBytes + 1024

#include <cstddef>

/// @brief Lab 01: sum reduction.
namespace lab01 {

/// @brief Threads per block of block_sum_kernel.
inline constexpr int kBlockSize = 256;

/// @brief Computes `*d_out = d_in[0] + ... + d_in[n-1]` on the default stream.
/// @param d_in  device array of n floats (256-byte aligned, as cudaMalloc returns)
/// @param d_out device pointer to one float; its previous contents are ignored
/// @param n     number of elements, at least 1
void sum_reduce(const float* d_in, float* d_out, std::size_t n);

/// @brief The kernel the grader inspects for its use of shared memory (block_sum_kernel).
const void* graded_kernel();

}  // namespace lab01
