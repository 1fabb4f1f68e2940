// Lab 01 baselines: the naive shared-memory tree and the CUB peer (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"

#include <cub/device/device_reduce.cuh>

namespace lab01::baseline {

namespace {
constexpr int kThreads = 256;

__global__ void naive_sum_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kThreads];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}
}  // namespace

void naive_sum(const float* in, float* out, std::size_t n) {
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    naive_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kThreads)), kThreads>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

CubSum::CubSum(std::size_t max_n) {
    CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes_, static_cast<const float*>(nullptr),
                                      static_cast<float*>(nullptr), static_cast<long long>(max_n)));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
}

CubSum::~CubSum() { cudaFree(temp_); }

void CubSum::operator()(const float* in, float* out, std::size_t n) {
    std::size_t bytes = temp_bytes_;
    CUDA_CHECK(cub::DeviceReduce::Sum(temp_, bytes, in, out, static_cast<long long>(n)));
}

}  // namespace lab01::baseline
