// Cheat, Lab 01 (a whole submission: wrong/header_macro/ holds this file and sum_reduction.cuh).
// This file is the starter, unchanged (its regions are empty); the cheat is in sum_reduction.cuh,
// which the grader's checks include: macros there would turn the checks' thresholds and verdicts
// into no-ops (see the header).
// Why it fails now: the checks and the lab are compiled against the course's sum_reduction.cuh, never
// the submission's (a note says it differs), so the starter is graded as it is.
// Expected: wrong_result (the starter's class).
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
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); }

}  // namespace lab01
