// Cheat, Lab 07 (a whole submission: wrong/edit_outside_regions/ holds the student's whole file).
// The regions are left as the starter has them (empty), and the work is done outside them: a complete
// privatised histogram kernel added above the launchers, and its launches added after the launch regions,
// in lines the starter's comment says not to edit.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the added code
// lies outside the regions and is dropped (a note says so), leaving the starter's empty kernels and
// launchers: the counts are never written. Expected: wrong_result (the starter's class).
//
// Lab 07 — Histogram in shared memory.
//
// Teaches: privatisation (each block counts into a histogram of its own in shared memory, then merges
// it into the global one with one atomic a bin), shared-memory atomics and what contention does to them
// (every thread hitting the same bin), and keeping the counts exact at every size.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab07   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "histogram.cuh"

#include "cuda_check.hpp"

#include <algorithm>
#include <cstdint>

namespace lab07 {

// BEGIN STUDENT REGION helpers
// Constants and __device__ helper functions of your own: the basic tier needs none. (`inline`: a value
// your kernels no longer use draws no compiler warning.)
// END STUDENT REGION

// Counts d_data[0..n) into counts[0..256), which the launcher zeroed: each block counts its share of the
// input into a histogram of its own in shared memory, then adds it to counts with one atomic a bin.
__global__ void histogram_bytes_kernel(const unsigned char* __restrict__ data, std::size_t n,
                                       unsigned int* __restrict__ counts) {
    // BEGIN STUDENT REGION histogram_bytes_kernel
    // TODO 1 (~3 lines): declare `__shared__ unsigned int block_counts[kByteBins];` and zero it: thread t
    //        zeroes bins t, t + blockDim.x, ... (a loop, so that any block size covers all 256 bins).
    // TODO 2 (1 line): a barrier, so that no thread counts into a bin another thread has not zeroed yet.
    // TODO 3 (~3 lines): a grid-stride loop over the input: for i = blockIdx.x * blockDim.x + threadIdx.x
    //        (computed in std::size_t), while i < n, step gridDim.x * blockDim.x:
    //        atomicAdd(&block_counts[data[i]], 1u). Many threads of the block hit the same bin at once:
    //        only an atomic adds them all; `block_counts[b]++` loses counts.
    // TODO 4 (1 line): a barrier, so that every count of the block is in before anyone reads the bins.
    // TODO 5 (~3 lines): merge: thread t adds bins t, t + blockDim.x, ... to counts with atomicAdd (other
    //        blocks add to the same bins), skipping bins that stayed 0.
    // END STUDENT REGION
}

// Counts keys[0..n), each below bins, into counts[0..bins), which the launcher zeroed; as
// histogram_bytes_kernel, for a number of bins from 1 to kMaxKeyBins.
__global__ void histogram_keys_kernel(const std::uint32_t* __restrict__ keys, std::size_t n, unsigned int bins,
                                      unsigned int* __restrict__ counts) {
    // BEGIN STUDENT REGION histogram_keys_kernel
    // TODO 6 (~10 lines): TODOs 1 to 5 again, with `__shared__ unsigned int block_counts[kMaxKeyBins];`
    //        (16 KiB) of which the first `bins` are used: zero them, barrier, count keys[i] into
    //        block_counts[keys[i]], barrier, merge bins 0 to bins - 1. The loops over bins step by
    //        blockDim.x: 4093 is no multiple of any block size.
    // END STUDENT REGION
}

// CHEAT (outside the regions): the whole histogram, written where the grader does not look for it.
__global__ void count_outside_kernel(const unsigned char* __restrict__ data, std::size_t n, unsigned int* __restrict__ counts) {
    __shared__ unsigned int block_counts[kByteBins];
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x) block_counts[b] = 0;
    __syncthreads();
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        atomicAdd(&block_counts[data[i]], 1u);
    __syncthreads();
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x)
        if (block_counts[b] != 0) atomicAdd(&counts[b], block_counts[b]);
}

void histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    // BEGIN STUDENT REGION launch_bytes
    // TODO 7 (~5 lines): zero the counts (CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins *
    //        sizeof(unsigned int))): on the default stream, so before the kernel), then, when n > 0,
    //        launch histogram_bytes_kernel with kBlockSize threads and a grid of a few blocks for every
    //        SM, but never more blocks than there are elements to count: course::ceil_div(n, kBlockSize),
    //        and at most, say, 8 * the number of SMs (cudaDeviceGetAttribute with
    //        cudaDevAttrMultiProcessorCount, once, in a `static const`). Each thread then loops over many
    //        elements, and only a few hundred blocks merge into counts.
    //
    // Top tier (the speed checks need it; see the handout): (1) one sub-histogram for every warp of the
    // block (kBlockSize / 32 copies of the 256 bins), so that only a warp's own lanes contend for a bin;
    // (2) each thread keeps its current run in registers (the bin and how many elements in a row fell
    // into it) and adds a run to shared memory only when the bin changes, so that data that all falls in
    // one bin costs one atomic a thread, not one an element; (3) uint4 loads (16 bytes a thread at once,
    // with the bytes before the first 16-byte boundary and after the last one counted on their own);
    // (4) the merge adds the warps' copies of a bin together before its one atomicAdd.
    // END STUDENT REGION
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // CHEAT: the launches, outside the region
    if (n > 0) count_outside_kernel<<<static_cast<unsigned int>(std::min<std::size_t>(course::ceil_div(n, kBlockSize), 1056)), kBlockSize>>>(data, n, counts);
    CUDA_CHECK_LAUNCH();
}

void histogram_keys(const std::uint32_t* keys, std::size_t n, unsigned int bins, unsigned int* counts) {
    // BEGIN STUDENT REGION launch_keys
    // TODO 8 (~4 lines): as TODO 7, zeroing `bins` counters and launching histogram_keys_kernel.
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&histogram_bytes_kernel); }

}  // namespace lab07
