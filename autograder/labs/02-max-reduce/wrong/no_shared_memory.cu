// Known-wrong Lab 02: fast and correct, but no shared memory at all (a grid-stride loop in
// registers, warp shuffles, and one atomic maximum per warp). The lab is about shared memory.
// Expected: technique_not_used.
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

__global__ void set_identity_kernel(float* out) { *out = -INFINITY; }

__global__ void block_max_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    float m = -INFINITY;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        m = max_or_nan(m, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (threadIdx.x % 32 == 0) atomic_max_float(out, m);
}

void max_reduce(const float* in, float* out, std::size_t n) {
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_max_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_max_kernel); }

}  // namespace lab02
