// Known-wrong Lab 01: fast and correct, but no shared memory at all (registers, warp shuffles and
// one atomicAdd per warp). The lab is about shared memory. Expected: technique_not_used.
#include "sum_reduction.cuh"

#include "cuda_check.hpp"

namespace lab01 {

__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
}

void sum_reduce(const float* in, float* out, std::size_t n) {
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_sum_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); }

}  // namespace lab01
