// Known-wrong Lab 01: a typo the compiler rejects (an undeclared name). The runner builds it like
// student work and must report does_not_compile with the compiler's first error.
// Expected: does_not_compile.
#include "sum_reduction.cuh"

#include "cuda_check.hpp"

namespace lab01 {

__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, partal[0]);  // BUG: misspelt
}

void sum_reduce(const float* in, float* out, std::size_t n) {
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); }

}  // namespace lab01
