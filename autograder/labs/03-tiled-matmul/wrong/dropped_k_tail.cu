// Known-wrong Lab 03: the tile loop runs K / 16 times, rounded down, so the last, partial tile along K
// is never added (and with K < 16 nothing is). Right whenever K is a multiple of 16, 4096 included.
// Expected: wrong_result, with the K-tail hint.
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
    for (int t = 0; t < K / kTile; ++t) {  // BUG: rounds down
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
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
