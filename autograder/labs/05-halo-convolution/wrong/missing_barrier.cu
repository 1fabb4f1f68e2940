// Known-wrong Lab 05: the basic tier without the __syncthreads() between loading the tile and
// reading it. The load loop is rolled (#pragma unroll 1), so a thread's second load waits for its
// first: the warps that load a second (or third) round of tile elements store them a full memory
// latency after the last warps of the block, which load only one round, start reading those very
// elements (the bottom halo rows) — stale values from the previous tile. Wrong in nearly every
// block, every run. Expected: wrong_result.
#include "halo_convolution.cuh"

#include "cuda_check.hpp"

#include <stdexcept>

namespace lab05 {

__constant__ float c_weights[kMaxFilterSize * kMaxFilterSize];

void set_filter(const float* weights, int K) {
    if (K != 3 && K != 5 && K != 7) throw std::invalid_argument("set_filter: K must be 3, 5 or 7");
    CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof(float) * K * K));
}

constexpr int kBlockX = 32, kBlockY = 8;

template <int K>
__global__ void halo_convolution_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    constexpr int R = K / 2, kTileW = kBlockX + 2 * R, kTileH = kBlockY + 2 * R, kThreads = kBlockX * kBlockY;
    __shared__ float tile[kTileH][kTileW];
    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R, y0 = static_cast<int>(blockIdx.y) * kBlockY - R;
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
#pragma unroll 1
    for (int k = 0; k < (kTileW * kTileH + kThreads - 1) / kThreads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) {
            const int gx = x0 + e % kTileW, gy = y0 + e / kTileW;
            const bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            tile[e / kTileW][e % kTileW] = inside ? in[gy * width + gx] : 0.0f;
        }
    }
    // BUG: no __syncthreads() here
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) acc += c_weights[i * K + j] * tile[threadIdx.y + i][threadIdx.x + j];
    const int x = x0 + R + static_cast<int>(threadIdx.x), y = y0 + R + static_cast<int>(threadIdx.y);
    if (x < width && y < height) out[y * width + x] = acc;
}

template <int K>
void launch(const float* in, float* out, int width, int height) {
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
}

void convolve(const float* in, float* out, int width, int height, int K) {
    switch (K) {
    case 3: launch<3>(in, out, width, height); break;
    case 5: launch<5>(in, out, width, height); break;
    case 7: launch<7>(in, out, width, height); break;
    default: throw std::invalid_argument("convolve: K must be 3, 5 or 7");
    }
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&halo_convolution_kernel<7>); }

}  // namespace lab05
