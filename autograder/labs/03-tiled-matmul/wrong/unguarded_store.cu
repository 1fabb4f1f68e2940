// Known-wrong Lab 03: the final store checks row < M but not col < N. The threads of the right-hand
// edge blocks whose col is past N store (zeros) into the next row of C, and on the last row past the
// end of C, into the grader's guard zone (at most 15 floats: inside the 64-float guard, so no crash).
// Expected: out_of_bounds_write, at the first size whose N is not a multiple of 16 (N = 1 already).
#include "tiled_matmul.cuh"

#include "cuda_check.hpp"

#include <cstddef>

namespace lab03 {

constexpr int kTile = 16;

__global__ void tiled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M) C[std::size_t(row) * N + col] = acc;  // BUG: no col < N
}

void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&tiled_matmul_kernel); }

}  // namespace lab03
