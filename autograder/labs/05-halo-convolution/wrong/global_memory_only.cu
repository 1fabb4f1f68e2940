// Known-wrong Lab 05: correct, but every thread reads its K x K neighbourhood straight from global
// memory, like the naive baseline; no shared memory at all. The lab is about the halo tile.
// Expected: technique_not_used.
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
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int gx = x + j - R, gy = y + i - R;
            if (gx >= 0 && gx < width && gy >= 0 && gy < height) acc += c_weights[i * K + j] * in[gy * width + gx];
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
