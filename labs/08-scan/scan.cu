// Lab 08 — Prefix sum (scan) in shared memory.
//
// Teaches: scanning a tile in shared memory (Hillis–Steele, then the work-efficient up-sweep and
// down-sweep with padding against bank conflicts), carrying each tile's total into every tile after it,
// and the single-pass scan with decoupled look-back, whose flags need memory ordering.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab08   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "scan.cuh"

#include "cuda_check.hpp"

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace lab08 {

// The scan's addition, for both element types. Floats add as floats. Ints wrap modulo 2^32, as scan.cuh
// promises: the sum is taken in unsigned, where C++ defines the wrap-around, and read back as an int.
__device__ __forceinline__ int scan_add(int a, int b) {
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
}
__device__ __forceinline__ float scan_add(float a, float b) { return a + b; }

// BEGIN STUDENT REGION helpers
// Constants and __device__ helpers that your kernels share. The basic tiers scan one element a thread,
// so a block's tile is kBlockSize elements; the top tier gives each thread many. (`inline`: a constant
// your kernels no longer use draws no compiler warning.)
inline constexpr int kItemsPerThread = 1;                       // elements each thread scans
inline constexpr int kTileSize = kBlockSize * kItemsPerThread;  // elements one block scans
// END STUDENT REGION

// Device memory that the blocks of a call share (tiles' totals, flags, a tile counter): at least @p bytes
// bytes in slot @p slot (0 to 7; slots never overlap), 256-byte aligned, kept from call to call and grown
// when a call needs more. It holds whatever the last call left there: clear what must start at zero
// (cudaMemsetAsync, on the default stream) in every call.
void* scratch(int slot, std::size_t bytes) {
    static void* buffers[8] = {};
    static std::size_t capacity[8] = {};
    if (slot < 0 || slot >= 8) throw std::invalid_argument("scratch: the slot must be 0 to 7");
    if (bytes > capacity[slot]) {
        if (buffers[slot]) CUDA_CHECK(cudaFree(buffers[slot]));  // waits for the work that used it
        buffers[slot] = nullptr;
        capacity[slot] = 0;
        CUDA_CHECK(cudaMalloc(&buffers[slot], bytes));
        capacity[slot] = bytes;
    }
    return buffers[slot];
}

// One block scans one tile of the input, kTileSize elements from blockIdx.x * kTileSize (or, in the top
// tier, from the tile its counter hands out), in shared memory, and writes it to out. What a tile does
// with its total, so that every later tile adds it, is your tier's: @p share is the scratch memory the
// launcher passes (null where the tier needs none).
template <class T>
__global__ void __launch_bounds__(kBlockSize)
    scan_tiles_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n, void* share) {
    // BEGIN STUDENT REGION scan_tiles_kernel
    // Tier 1 (Hillis–Steele, one element a thread, one tile):
    // TODO 1 (~4 lines): declare `__shared__ T buffer[2][kBlockSize];`, compute this thread's global index
    //        `std::size_t i = blockIdx.x * std::size_t(kTileSize) + threadIdx.x;`, and store in[i] into
    //        buffer[0][threadIdx.x] (T(0), the identity of +, when i >= n). Then a barrier.
    // TODO 2 (~8 lines): the Hillis–Steele steps, for offset = 1, 2, 4, ... < kBlockSize, reading buffer
    //        `cur` and writing buffer `1 - cur` (start with cur = 0): thread t writes
    //        scan_add(buffer[cur][t - offset], buffer[cur][t]) when t >= offset, else buffer[cur][t] as it is.
    //        A barrier after every step, outside the `if`; then cur = 1 - cur.
    // TODO 3 (~2 lines): when i < n, store the thread's inclusive sum to out[i].
    //
    // Tier 3 adds (~3 lines): the last thread of the block writes the tile's total to
    // static_cast<T*>(share)[blockIdx.x] when share is not null (see TODO 6).
    // Tier 2 and the top tier replace TODO 2: see the handout.
    // END STUDENT REGION
}

// Adds to every element of tile b > 0 the sum of all the tiles before it, carries[b - 1]: the last step of
// the scan-then-add tier (the single-pass tier launches only scan_tiles_kernel).
template <class T>
__global__ void __launch_bounds__(kBlockSize)
    add_carries_kernel(T* __restrict__ out, std::size_t n, const T* __restrict__ carries) {
    // BEGIN STUDENT REGION add_carries_kernel
    // TODO 5 (~4 lines, tier 3): skip tile 0 (it has no carry); otherwise every thread adds
    //        carries[blockIdx.x - 1] to its element(s) of this tile (scan_add), where i < n.
    // END STUDENT REGION
}

// Scans in[0 .. n) into out. @p level counts how deep the scan-then-add tier has recursed into its own
// tiles' totals (0 for the caller's arrays): give each level its own scratch slots.
template <class T>
void scan_launch(const T* in, T* out, std::size_t n, int level) {
    // BEGIN STUDENT REGION launch
    // TODO 4 (1 line, tier 1): launch scan_tiles_kernel<T><<<1, kBlockSize>>>(in, out, n, nullptr): one
    //        tile, right for n <= kTileSize only.
    // TODO 6 (~10 lines, tier 3, scan then add): blocks = course::ceil_div(n, kTileSize); when there is
    //        more than one, take `T* totals = static_cast<T*>(scratch(2 * level, blocks * sizeof(T)))` and
    //        `T* carries` likewise from slot 2 * level + 1; launch scan_tiles_kernel with `totals` as its
    //        share; scan the totals into the carries with scan_launch(totals, carries, blocks, level + 1);
    //        then launch add_carries_kernel<T><<<blocks, kBlockSize>>>(out, n, carries).
    //
    // Top tier (the speed checks need it; see the handout): one launch that reads the input once and
    // writes the output once: tiles of many elements a thread, staged through shared memory, handed out
    // by an atomic counter, each carrying its predecessors' sum by decoupled look-back.
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

void inclusive_scan(const int* in, int* out, std::size_t n) { scan_launch(in, out, n, 0); }

void inclusive_scan(const float* in, float* out, std::size_t n) { scan_launch(in, out, n, 0); }

const void* graded_kernel() { return reinterpret_cast<const void*>(&scan_tiles_kernel<int>); }

}  // namespace lab08
