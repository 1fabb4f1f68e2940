// Lab 02 baselines: the naive shared-memory tree and the CUB peer (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"

#include <cub/device/device_reduce.cuh>

#include <cmath>

namespace lab02::baseline {

namespace {
constexpr int kThreads = 256;

__device__ __forceinline__ float max_or_nan(float a, float b) { return (a > b || isnan(a)) ? a : b; }

// The same atomic maximum as the reference solution (see its comments).
__device__ void atomic_max_float(float* address, float value) {
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    if (__float_as_int(value) >= 0)
        atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
    else
        atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value));
}

__global__ void set_identity_kernel(float* out) { *out = -INFINITY; }

__global__ void naive_max_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kThreads];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : -INFINITY;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
}
}  // namespace

void naive_max(const float* in, float* out, std::size_t n) {
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    naive_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kThreads)), kThreads>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

CubMax::CubMax(std::size_t max_n) {
    CUDA_CHECK(cub::DeviceReduce::Max(nullptr, temp_bytes_, static_cast<const float*>(nullptr),
                                      static_cast<float*>(nullptr), static_cast<long long>(max_n)));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
}

CubMax::~CubMax() { cudaFree(temp_); }

void CubMax::operator()(const float* in, float* out, std::size_t n) {
    std::size_t bytes = temp_bytes_;
    CUDA_CHECK(cub::DeviceReduce::Max(temp_, bytes, in, out, static_cast<long long>(n)));
}

}  // namespace lab02::baseline
