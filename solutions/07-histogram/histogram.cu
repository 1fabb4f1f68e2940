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
// Warps of a block: histogram_keys_kernel keeps at most one copy of the bins a warp.
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
// uniform data costs one an element, as without runs. (histogram_keys_kernel's; the bytes kernel keeps its
// runs a 16-byte load at a time.)
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
    // Stretch tier: a column of the 256 bins for every lane of a warp, so that no two lanes of an atomic
    // instruction ever touch the same bank; runs of whole 16-byte loads of one value counted in registers;
    // a grid-stride loop of 16-byte loads, two in flight a thread; one global atomic a bin a block.
    //
    // lane_counts[b * 32 + l] is bin b of lane l's column, shared by lane l of every warp of the block. It
    // lies in bank (b * 32 + l) % 32 = l: the 32 atomics of one instruction hit 32 different banks, one
    // pass, whatever the bytes are (with a copy of the bins a warp, random bytes put 3 or 4 lanes in the
    // busiest bank, and bytes of one value all 32 lanes on one word). Lane l of different warps shares a
    // counter, but their atomics are different instructions, which the SM applies one after the other
    // anyway. 256 bins x 32 lanes x 4 bytes: 32 KiB a block, six blocks an SM.
    constexpr unsigned int kLanes = 32;
    __shared__ __align__(16) unsigned int lane_counts[kByteBins * kLanes];  // (bins, lanes)
    for (unsigned int i = threadIdx.x; i < kByteBins * kLanes / 4; i += blockDim.x)
        reinterpret_cast<uint4*>(lane_counts)[i] = make_uint4(0, 0, 0, 0);
    __syncthreads();  // every bin is zeroed before any thread counts into it

    const unsigned int lane = threadIdx.x % kLanes;
    unsigned int* column = lane_counts + lane;  // bin b of this lane's column: column[b * kLanes]
    const auto add = [&](unsigned int b) { atomicAdd(&column[b * kLanes], 1u); };
    const auto add_word = [&](unsigned int w) {
        add(w & 0xffu);
        add((w >> 8) & 0xffu);
        add((w >> 16) & 0xffu);
        add(w >> 24);
    };
    // The run: 16-byte loads whose bytes are all one value, `run` of them in a row of this thread's, all in
    // bin run_bin, counted in registers and added with one atomic when a load of another value (or of
    // mixed values) comes. Bytes in one bin cost one shared atomic a thread; uniform bytes cost one
    // compare every 16 bytes (a load of one value is one in 2^120).
    unsigned int run_bin = 0, run = 0;
    const auto add16 = [&](const uint4& v) {
        const unsigned int splat = (v.x & 0xffu) * 0x01010101u;  // the first byte, in all four bytes
        if (((v.x ^ splat) | (v.y ^ splat) | (v.z ^ splat) | (v.w ^ splat)) == 0) {
            if ((v.x & 0xffu) != run_bin) {
                if (run != 0) atomicAdd(&column[run_bin * kLanes], run);
                run_bin = v.x & 0xffu;
                run = 0;
            }
            run += 16;
        } else {
            add_word(v.x);
            add_word(v.y);
            add_word(v.z);
            add_word(v.w);
        }
    };
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    // The bytes before the first 16-byte boundary (none at the start of an allocation), one a thread.
    const std::size_t to_boundary = (16 - (reinterpret_cast<std::uintptr_t>(data) & 15)) & 15;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (tid < head) add(data[tid]);
    const uint4* data16 = reinterpret_cast<const uint4*>(data + head);
    const std::size_t n16 = (n - head) / 16;  // whole uint4s
    std::size_t i = tid;
    for (; i + threads < n16; i += 2 * threads) {
        // Both loads issued before either is counted, so two requests a thread are in flight.
        const uint4 a = data16[i], b = data16[i + threads];
        add16(a);
        add16(b);
    }
    if (i < n16) add16(data16[i]);
    // The bytes after the last whole uint4 (fewer than 16), one a thread.
    const std::size_t tail = head + n16 * 16;
    if (tail + tid < n) add(data[tail + tid]);
    if (run != 0) atomicAdd(&column[run_bin * kLanes], run);
    __syncthreads();  // every lane's counts are in before the merge reads them

    // Thread t sums row t, the 32 columns' counts of bin t, starting at column t % 32 and wrapping: the 32
    // threads of a warp read 32 different banks at every step. Then one global atomic a nonzero bin.
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int l = 0; l < kLanes; ++l) sum += lane_counts[b * kLanes + (l + b) % kLanes];
        if (sum != 0) atomicAdd(&counts[b], sum);  // other blocks add to the same bin
    }
    // END STUDENT REGION
}

// Counts keys[0..n), each below bins, into counts[0..bins), which the launcher zeroed; as
// histogram_bytes_kernel, for a number of bins from 1 to kMaxKeyBins.
__global__ void histogram_keys_kernel(const std::uint32_t* __restrict__ keys, std::size_t n, unsigned int bins,
                                      unsigned int* __restrict__ counts) {
    // BEGIN STUDENT REGION histogram_keys_kernel
    // As histogram_bytes_kernel, with key_copies(bins) copies of the bins in dynamic shared memory (sized
    // by the launch), warp w counting into copy w % copies, and 16-byte loads of four keys.
    extern __shared__ unsigned int key_counts[];  // (copies, bins)
    const unsigned int copies = key_copies(bins);
    for (unsigned int i = threadIdx.x; i < copies * bins; i += blockDim.x) key_counts[i] = 0;
    __syncthreads();  // every bin is zeroed before any thread counts into it

    unsigned int* mine = key_counts + (threadIdx.x / 32) % copies * bins;
    Run run;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    // The keys before the first 16-byte boundary (none at the start of an allocation), one a thread.
    const std::size_t to_boundary = ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (tid < head) run.add(mine, keys[tid]);
    const auto add4 = [&](const uint4& v) {
        run.add(mine, v.x);
        run.add(mine, v.y);
        run.add(mine, v.z);
        run.add(mine, v.w);
    };
    const uint4* keys4 = reinterpret_cast<const uint4*>(keys + head);
    const std::size_t n4 = (n - head) / 4;  // whole uint4s
    std::size_t i = tid;
    for (; i + threads < n4; i += 2 * threads) {
        const uint4 a = keys4[i], b = keys4[i + threads];
        add4(a);
        add4(b);
    }
    if (i < n4) add4(keys4[i]);
    const std::size_t tail = head + n4 * 4;  // the last keys (fewer than 4), one a thread
    if (tail + tid < n) run.add(mine, keys[tail + tid]);
    run.flush(mine);
    __syncthreads();  // every warp's counts are in before the merge reads them

    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int c = 0; c < copies; ++c) sum += key_counts[c * bins + b];
        if (sum != 0) atomicAdd(&counts[b], sum);
    }
    // END STUDENT REGION
}

void histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    // BEGIN STUDENT REGION launch_bytes
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts. The kernel's 32 KiB
    // of bins a block: the SM's largest shared-memory carve-out first, so that six blocks fit on an SM.
    static const unsigned int max_blocks = [] {
        CUDA_CHECK(cudaFuncSetAttribute(histogram_bytes_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        int(cudaSharedmemCarveoutMaxShared)));
        return one_wave(histogram_bytes_kernel, 0);
    }();
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
    // As histogram_bytes, with the keys kernel's shared memory sized for its copies of the bins (at most
    // 32 KiB: under the 48 KiB a launch may ask for without raising the kernel's limit).
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t smem = std::size_t(key_copies(bins)) * bins * sizeof(unsigned int);
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, smem)));
        histogram_keys_kernel<<<grid, kBlockSize, smem>>>(keys, n, bins, counts);
    }
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&histogram_bytes_kernel); }

}  // namespace lab07
