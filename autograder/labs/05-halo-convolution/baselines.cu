// Lab 05 baselines: the naive global-memory convolution, the copy peer, and a device-side
// comparison (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"
#include "device_buffer.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

namespace lab05::baseline {

namespace {
constexpr int kMaxK = 7;
__constant__ float c_baseline_weights[kMaxK * kMaxK];

// Each thread reads its K x K neighbourhood from global memory: neighbouring threads read
// overlapping pixels again and again (through L1 if they are lucky). K is a template parameter,
// as in the graded kernel, so the comparison is about memory traffic, not loop overhead.
template <int K>
__global__ void naive_convolution_kernel(const float* __restrict__ in, float* __restrict__ out, int width,
                                         int height) {
    constexpr int R = K / 2;
    const int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (x >= width || y >= height) return;
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const int gy = y + i - R;
        if (gy < 0 || gy >= height) continue;
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int gx = x + j - R;
            if (gx >= 0 && gx < width) acc = fmaf(c_baseline_weights[i * K + j], in[gy * width + gx], acc);
        }
    }
    out[y * width + x] = acc;
}

template <int K>
void launch_naive(const float* in, float* out, int width, int height) {
    const dim3 block(32, 8);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, 32)),
                    static_cast<unsigned>(course::ceil_div(height, 8)));
    naive_convolution_kernel<K><<<grid, block>>>(in, out, width, height);
}

}  // namespace

void set_filter(const float* weights, int K) {
    if (K != 3 && K != 5 && K != 7) throw std::invalid_argument("baseline::set_filter: K must be 3, 5 or 7");
    CUDA_CHECK(cudaMemcpyToSymbol(c_baseline_weights, weights, sizeof(float) * K * K));
}

void naive_convolve(const float* in, float* out, int width, int height, int K) {
    switch (K) {
    case 3: launch_naive<3>(in, out, width, height); break;
    case 5: launch_naive<5>(in, out, width, height); break;
    case 7: launch_naive<7>(in, out, width, height); break;
    default: throw std::invalid_argument("baseline::naive_convolve: K must be 3, 5 or 7");
    }
    CUDA_CHECK_LAUNCH();
}

void copy(const void* src, void* dst, std::size_t bytes) {
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

}  // namespace lab05::baseline
