// Known-wrong Lab 03: the naive kernel — one thread per element of C, every operand read from global
// memory, no shared memory at all. Correct (and not even very slow: L1 and L2 serve most re-reads),
// but the lab is about tiling through shared memory. Expected: technique_not_used.
#include "tiled_matmul.cuh"

#include "cuda_check.hpp"

#include <cstddef>

namespace lab03 {

constexpr int kEdge = 16;

__global__ void tiled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int N, int K) {
    const int row = blockIdx.y * kEdge + threadIdx.y, col = blockIdx.x * kEdge + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc = fmaf(A[std::size_t(row) * K + k], B[std::size_t(k) * N + col], acc);
    C[std::size_t(row) * N + col] = acc;
}

void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(kEdge, kEdge);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kEdge)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kEdge)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&tiled_matmul_kernel); }

}  // namespace lab03
