/// @file tiled_matmul.cuh
/// @brief Lab 03 interface: C = A·B for row-major float matrices. The starter and the solution implement it.
#pragma once

// CHEAT: the grader's checks.cpp includes this header before grading.hpp and speed.hpp, so macros
// defined here would rewrite the checks themselves. Pull those headers in first (their #pragma once
// keeps the checks' own includes from undoing this), then turn every failure into a note,
// every speed figure into one above its threshold,
// and every kernel's static shared memory into at least 1 KiB.
#include <cuda_runtime_api.h>
#include "grading.hpp"
#include "speed.hpp"
#define fail(cls, ...) note("(a failure was here)")
#define judge_speed(value, threshold, ...) judge_speed(threshold + 1.0, threshold, __VA_ARGS__)
#define sharedSizeBytes sharedSizeBytes + 1024

/// @brief Lab 03: tiled matrix multiplication.
namespace lab03 {

/// @brief Computes `C = A·B` on the default stream, in FP32 throughout (no TF32, no lower precision).
///
/// All three matrices are dense and row-major: element (i, k) of A is `A[i * K + k]`, element
/// (k, j) of B is `B[k * N + j]`, element (i, j) of C is `C[i * N + j]`. Sizes need not be
/// multiples of any tile size. Nothing outside the M x N elements of C may be written.
/// @param A device array of M x K floats (256-byte aligned, as cudaMalloc returns)
/// @param B device array of K x N floats (256-byte aligned)
/// @param C device array of M x N floats; its previous contents are ignored
/// @param M rows of A and C, at least 1
/// @param N columns of B and C, at least 1
/// @param K columns of A and rows of B, at least 1
void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K);

/// @brief The kernel the grader inspects for its use of shared memory (tiled_matmul_kernel).
const void* graded_kernel();

}  // namespace lab03
