// Known-wrong Lab 02: the finish across blocks is atomicMax on the float's bits read as an int,
// for every value. That orders non-negative floats correctly but negative ones backwards (-2.0
// reads as a larger int than -1.0, and -INFINITY larger than both), so an input of negative
// numbers keeps -INFINITY or the wrong block's maximum. Expected: wrong_result.
#include "max_reduce.cuh"

#include "cuda_check.hpp"

#include <cmath>

namespace lab02 {

__device__ __forceinline__ float max_or_nan(float a, float b) { return (a > b || isnan(a)) ? a : b; }

__device__ void atomic_max_float(float* address, float value) {
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));  // BUG: wrong for negative floats
}

__global__ void set_identity_kernel(float* out) { *out = -INFINITY; }

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
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_max_kernel); }

}  // namespace lab02
