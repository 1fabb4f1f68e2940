// Cheat, Lab 07 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold a correct histogram
// with no shared memory at all (a global atomic an element, as in global_atomics_only.cu, with the
// reference's helpers and bytes launcher); outside the regions, the file adds a decoy kernel that declares
// a __shared__ array and changes graded_kernel() to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and the
// changed graded_kernel() lie outside the regions and are dropped (a note says so), and the check judges
// the kernels that really run, traced, which have no shared memory. Expected: technique_not_used.
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
// Warps of a block: histogram_bytes_kernel gives each its own copy of the 256 bins (8 KiB a block).
inline constexpr int kWarps = kBlockSize / 32;
// Shared memory histogram_keys_kernel gives its copies of the bins: as many copies as fit in it, at most
// one a warp and at least one (4093 bins: 2 copies, 1000 bins: 8).
inline constexpr unsigned int kKeySharedBytes = 32 * 1024;
// The least number of elements a thread counts before its block merges: fewer would spend more on
// zeroing and merging the block's bins than on counting.
inline constexpr std::size_t kMinPerThread = 64;

// The copies of the bins a block of histogram_keys_kernel keeps (the launch sizes its shared memory so).
__host__ __device__ constexpr unsigned int key_copies(unsigned int bins) {
    const unsigned int fit = kKeySharedBytes / (bins * unsigned(sizeof(unsigned int)));
    return fit < 1 ? 1 : fit > unsigned(kWarps) ? unsigned(kWarps) : fit;
}

// A run of equal bins in one thread's sequence of elements, kept in registers: add() lengthens it or,
// when the bin changes, adds the finished run to the thread's histogram in shared memory with one
// atomic. Data that all falls in one bin costs one shared atomic a thread instead of one an element;
// uniform data costs one an element, as without runs.
struct Run {
    unsigned int bin = 0;
    unsigned int length = 0;
    __device__ __forceinline__ void add(unsigned int* hist, unsigned int b) {
        if (b != bin) {
            if (length != 0) atomicAdd(&hist[bin], length);
            bin = b;
            length = 0;
        }
        ++length;
    }
    __device__ __forceinline__ void flush(unsigned int* hist) const {
        if (length != 0) atomicAdd(&hist[bin], length);
    }
};

// Blocks of @p kernel (with @p smem bytes of dynamic shared memory) that fit on one SM at once, times the
// SMs: a grid that fills the GPU in one wave, so that no SM idles while another runs a last block.
template <class Kernel>
unsigned int one_wave(Kernel kernel, std::size_t smem) {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockSize, smem));
    return static_cast<unsigned int>(std::max(per_sm, 1) * sms);
}
// END STUDENT REGION

// Counts d_data[0..n) into counts[0..256), which the launcher zeroed: each block counts its share of the
// input into a histogram of its own in shared memory, then adds it to counts with one atomic a bin.
__global__ void histogram_bytes_kernel(const unsigned char* __restrict__ data, std::size_t n,
                                       unsigned int* __restrict__ counts) {
    // BEGIN STUDENT REGION histogram_bytes_kernel
    // BUG: no __shared__ memory: every element is a global atomic
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t n16 = n / 16;
    const uint4* data16 = reinterpret_cast<const uint4*>(data);
    for (std::size_t i = tid; i < n16; i += threads) {
        const uint4 v = data16[i];
        const unsigned int words[4] = {v.x, v.y, v.z, v.w};
        for (int j = 0; j < 16; ++j) atomicAdd(&counts[(words[j / 4] >> (8 * (j % 4))) & 0xffu], 1u);
    }
    if (n16 * 16 + tid < n) atomicAdd(&counts[data[n16 * 16 + tid]], 1u);
    // END STUDENT REGION
}

// Counts keys[0..n), each below bins, into counts[0..bins), which the launcher zeroed; as
// histogram_bytes_kernel, for a number of bins from 1 to kMaxKeyBins.
__global__ void histogram_keys_kernel(const std::uint32_t* __restrict__ keys, std::size_t n, unsigned int bins,
                                      unsigned int* __restrict__ counts) {
    // BEGIN STUDENT REGION histogram_keys_kernel
    // BUG: no __shared__ memory: every key is a global atomic
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        atomicAdd(&counts[keys[i]], 1u);
    // END STUDENT REGION
}

void histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    // BEGIN STUDENT REGION launch_bytes
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts.
    static const unsigned int max_blocks = one_wave(histogram_bytes_kernel, 0);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // stream order: zero first
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize>>>(data, n, counts);
    }
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

void histogram_keys(const std::uint32_t* keys, std::size_t n, unsigned int bins, unsigned int* counts) {
    // BEGIN STUDENT REGION launch_keys
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, 0)));
        histogram_keys_kernel<<<grid, kBlockSize>>>(keys, n, bins, counts);
    }
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void histogram_kernel_for_inspection(const unsigned char* __restrict__ data, std::size_t n,
                                                unsigned int* __restrict__ counts) {
    __shared__ unsigned int block_counts[kByteBins];
    block_counts[threadIdx.x % kByteBins] = 0;
    __syncthreads();
    if (threadIdx.x < n) atomicAdd(&block_counts[data[threadIdx.x]], 1u);
    __syncthreads();
    if (threadIdx.x < kByteBins) atomicAdd(&counts[threadIdx.x], block_counts[threadIdx.x]);
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&histogram_kernel_for_inspection); }  // CHEAT

}  // namespace lab07
