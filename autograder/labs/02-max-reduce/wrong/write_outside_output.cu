// Known-wrong Lab 02: the maximum is right, but the identity kernel is launched with two threads
// and each writes out[threadIdx.x] = -INFINITY: out[1] belongs to somebody else.
// Expected: out_of_bounds_write.
#include "max_reduce.cuh"

#include "cuda_check.hpp"

#include <cmath>

namespace lab02 {

__device__ __forceinline__ float max_or_nan(float a, float b) { return (a > b || isnan(a)) ? a : b; }

__device__ void atomic_max_float(float* address, float value) {
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    if (__float_as_int(value) >= 0)
        atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
    else
        atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value));
}

__global__ void set_identity_kernel(float* out) { out[threadIdx.x] = -INFINITY; }

__global__ void block_max_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : -INFINITY;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
}

void max_reduce(const float* in, float* out, std::size_t n) {
    set_identity_kernel<<<1, 2>>>(out);  // BUG: out holds one float
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_max_kernel); }

}  // namespace lab02
