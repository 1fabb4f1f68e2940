// Cheat, Lab 01 (a whole submission: wrong/edit_outside_regions/ holds the student's whole file).
// The regions are left as the starter has them (empty), and the work is done outside them: a
// complete grid-stride reduction kernel added above sum_reduce, and its launch added after the
// launch region, in lines the starter's comment says not to edit.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the added
// kernel and launch lie outside the regions and are dropped (a note says so), leaving the starter's
// empty kernel and launcher: *out is never written. Expected: wrong_result (the starter's class).
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
    // TODO 1 (~3 lines): declare `__shared__ float partial[kBlockSize];`, compute this thread's global
    //        index i, and store in[i] into partial[threadIdx.x] (store 0, the identity of +, when i >= n).
    // TODO 2 (1 line): a barrier, so every element is in shared memory before anyone reads a neighbour's.
    // TODO 3 (~5 lines): the halving loop: for stride = blockDim.x / 2 down to 1, threads with
    //        threadIdx.x < stride add partial[threadIdx.x + stride] into partial[threadIdx.x].
    //        A barrier after every step — outside the `if`, so that every thread reaches it.
    // TODO 4 (~2 lines): thread 0 adds partial[0] to *out with atomicAdd.
    // END STUDENT REGION
}

// CHEAT (outside the regions): the whole reduction, written where the grader does not look for it.
__global__ void sum_all_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

void sum_reduce(const float* in, float* out, std::size_t n) {
    // BEGIN STUDENT REGION launch
    // TODO 5 (~3 lines): zero *out with cudaMemsetAsync (the blocks add into it), then launch
    //        block_sum_kernel with kBlockSize threads and enough blocks to cover all n elements.
    //        Use course::ceil_div; wrap the memset in CUDA_CHECK.
    //
    // Stretch tier (the speed checks need it; see the handout): launch only a few blocks per SM,
    // let each thread add many elements with float4 loads before the tree, and finish the last
    // 32 partials with __shfl_down_sync instead of shared memory and barriers.
    // END STUDENT REGION
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));  // CHEAT: the launch, outside the region
    sum_all_kernel<<<static_cast<unsigned>(std::min<std::size_t>(course::ceil_div(n, kBlockSize), 1056)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); }

}  // namespace lab01
