// Known-wrong Lab 05: the tile holds only the block's own 32 x 8 pixels, no halo. A tap that falls
// outside the tile is taken as 0, as if it were outside the image, so outputs within K / 2 pixels
// of every tile edge miss some of their neighbours. Expected: wrong_result.
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
    constexpr int R = K / 2;
    __shared__ float tile[kBlockY][kBlockX];  // BUG: no room for the halo
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    tile[threadIdx.y][threadIdx.x] = x < width && y < height ? in[y * width + x] : 0.0f;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int ty = static_cast<int>(threadIdx.y) + i - R, tx = static_cast<int>(threadIdx.x) + j - R;
            if (ty >= 0 && ty < kBlockY && tx >= 0 && tx < kBlockX) acc += c_weights[i * K + j] * tile[ty][tx];
        }
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
