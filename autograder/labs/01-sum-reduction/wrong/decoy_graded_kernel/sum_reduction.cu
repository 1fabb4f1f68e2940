// Cheat, Lab 01 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold a fast, correct
// reduction with no shared memory at all (registers and warp shuffles, as in no_shared_memory.cu);
// outside the regions, the file adds a decoy kernel that declares a __shared__ array and changes
// graded_kernel() to return the decoy, so cudaFuncGetAttributes would report 1 KiB of shared memory.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real block_sum_kernel, which declares no shared memory. Correct and fast otherwise.
// Expected: technique_not_used.
//
// Lab 01 — Sum reduction in shared memory.
//
// Teaches: staging data in __shared__ memory, where __syncthreads() must go, the halving
// tree that turns 256 values into 1, and finishing across blocks with one atomicAdd each.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab01   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "sum_reduction.cuh"

#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>

namespace lab01 {

// One block reduces its part of the input to a single partial sum in shared memory;
// thread 0 then adds that partial to *out.
__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    // BEGIN STUDENT REGION block_sum_kernel
    // BUG: no __shared__ memory: the graded technique is not used
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void block_sum_kernel_for_inspection(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    partial[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) *out = partial[0];
}

void sum_reduce(const float* in, float* out, std::size_t n) {
    // BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_sum_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel_for_inspection); }  // CHEAT

}  // namespace lab01
