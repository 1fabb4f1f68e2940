// Known-wrong Lab 01: tries to wait for all blocks inside one launch (a spin on a global counter)
// before the last one finishes the sum. Blocks that are not yet resident can never arrive, so the
// resident ones spin forever: there is no barrier across blocks. Expected: timeout.
#include "sum_reduction.cuh"

#include "cuda_check.hpp"

namespace lab01 {

__device__ unsigned blocks_done;

__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, partial[0]);
        atomicAdd(&blocks_done, 1u);
        // BUG: waits for blocks that may not be running yet
        while (atomicAdd(&blocks_done, 0u) < gridDim.x) {
        }
    }
}

void sum_reduce(const float* in, float* out, std::size_t n) {
    const unsigned zero = 0;
    CUDA_CHECK(cudaMemcpyToSymbol(blocks_done, &zero, sizeof zero));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); }

}  // namespace lab01
