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
// Top tier: a single pass over the input. Each block scans a tile of 4096 elements, 16 a thread,
// staged through shared memory so that every global load and store is coalesced; the tiles are handed
// out in the order blocks start (an atomic counter), and each carries the sum of the tiles before it by
// decoupled look-back on one status word a tile.
inline constexpr int kItemsPerThread = 16;                      // elements each thread scans
inline constexpr int kTileSize = kBlockSize * kItemsPerThread;  // 4096 elements one block scans
inline constexpr int kWarps = kBlockSize / 32;                  // 8 warps a block
inline constexpr int kWarpTile = 32 * kItemsPerThread;          // 512 elements: a warp's share of the tile
inline constexpr unsigned kFullMask = 0xffffffffu;

// A warp's share of the tile in shared memory, with one word of padding after every 32. A coalesced row
// k * 32 + lane lands in bank (k * 33 + lane) % 32: 32 banks. Thread `lane`'s 16 consecutive elements
// start at word 16 * lane + lane / 2: for element j, lanes 2m and 2m + 1 use banks m + j and m + j + 16
// (mod 32), 32 different banks again. Without the padding the second pattern is a 16-way conflict.
__host__ __device__ constexpr int padded(int i) { return i + i / 32; }

// A tile's status word, written once it is known and never torn: the high 32 bits say what the low 32
// bits hold (the value's bits: an int as it is, a float as __float_as_uint gives it).
inline constexpr unsigned long long kNotReady = 0;              // nothing yet (the launcher zeroes every word)
inline constexpr unsigned long long kAggregate = 1ull << 32;    // the tile's own total
inline constexpr unsigned long long kInclusive = 2ull << 32;    // the total of this tile and all before it
// Where the launcher's scratch holds the tile counter (first word) and the status words (from byte 256).
inline constexpr std::size_t kStatusOffset = 256;

__device__ __forceinline__ unsigned to_bits(int v) { return static_cast<unsigned>(v); }
__device__ __forceinline__ unsigned to_bits(float v) { return __float_as_uint(v); }
template <class T>
__device__ __forceinline__ T from_bits(unsigned u) {
    if constexpr (std::is_same_v<T, float>) return __uint_as_float(u);
    else return static_cast<T>(u);
}

// The inclusive scan of one value a lane, across the warp (Hillis–Steele in registers: 5 shuffle steps).
template <class T>
__device__ __forceinline__ T warp_inclusive_scan(T v, unsigned lane) {
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
        const T up = __shfl_up_sync(kFullMask, v, offset);
        if (lane >= static_cast<unsigned>(offset)) v = scan_add(up, v);
    }
    return v;
}

// The sum of one value a lane, given to every lane.
template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v = scan_add(v, __shfl_xor_sync(kFullMask, v, offset));
    return v;
}

// Publishes a tile's status: one 64-bit store with release semantics. The value and its flag are one word,
// so a reader that sees the flag sees the value with it; release also makes this block's earlier writes
// visible to a block that reads the word with acquire.
__device__ __forceinline__ void publish(unsigned long long* status, std::size_t tile, unsigned long long flag,
                                        unsigned bits) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[tile]);
    word.store(flag | bits, cuda::memory_order_release);
}

// Decoupled look-back, by one whole warp: the sum of every tile before @p tile. Lane k reads the status of
// tile (window - k), waiting while it is not ready; the lanes up to the nearest inclusive prefix add their
// values, and the window moves 32 tiles back until one held an inclusive prefix. A tile waited for has
// taken its index from the counter before this one, so it runs, and it publishes its aggregate before it
// waits for anything itself: the wait always ends.
template <class T>
__device__ T look_back(unsigned long long* status, std::size_t tile, unsigned lane) {
    T carry = T(0);
    long long window = static_cast<long long>(tile) - 1;
    while (true) {
        const long long p = window - static_cast<long long>(lane);
        unsigned long long word = kInclusive;  // before tile 0: the identity, 0, as an inclusive prefix
        if (p >= 0) {
            cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> ref(status[p]);
            do {
                word = ref.load(cuda::memory_order_acquire);
            } while ((word >> 32) == 0);
        }
        const unsigned inclusive = __ballot_sync(kFullMask, (word & kInclusive) != 0);
        const unsigned last = inclusive ? static_cast<unsigned>(__ffs(inclusive) - 1) : 31u;  // nearest inclusive
        const T mine = lane <= last ? from_bits<T>(static_cast<unsigned>(word)) : T(0);
        carry = scan_add(warp_sum(mine), carry);
        if (inclusive) return carry;
        window -= 32;
    }
}
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
    // Top tier: one tile a block, in the order blocks start; each warp stages its 512 elements through
    // a padded shared array, scans 16 a thread in registers, then across the warp with shuffles; warp 0
    // combines the warps and looks back for the carry from the tiles before.
    __shared__ T staged[kWarps][padded(kWarpTile)];  // (warps, 528): a warp's elements, padded
    __shared__ T warp_prefix[kWarps];                // each warp's total, then the sum before each warp
    __shared__ unsigned tile_index;

    auto* counter = static_cast<unsigned*>(share);
    auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(share) + kStatusOffset);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) tile_index = atomicAdd(counter, 1u);  // tiles in the order blocks start
    __syncthreads();
    const std::size_t tile = tile_index;
    const std::size_t base = tile * kTileSize + std::size_t(warp) * kWarpTile;  // this warp's first element
    T* s = staged[warp];

    // Coalesced loads, 16 independent ones in flight a thread; past n, the identity.
    T v[kItemsPerThread];
    if (base + kWarpTile <= n) {
#pragma unroll
        for (int k = 0; k < kItemsPerThread; ++k) v[k] = in[base + k * 32 + lane];
    } else {
#pragma unroll
        for (int k = 0; k < kItemsPerThread; ++k) {
            const std::size_t i = base + k * 32 + lane;
            v[k] = i < n ? in[i] : T(0);
        }
    }
#pragma unroll
    for (int k = 0; k < kItemsPerThread; ++k) s[padded(k * 32 + lane)] = v[k];
    __syncwarp();  // the warp's rows are in shared memory before any lane reads another lane's
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) v[j] = s[padded(lane * kItemsPerThread + j)];

    // The thread's 16 consecutive elements, scanned in registers; then the threads' totals across the warp.
#pragma unroll
    for (int j = 1; j < kItemsPerThread; ++j) v[j] = scan_add(v[j - 1], v[j]);
    const T warp_inclusive = warp_inclusive_scan(v[kItemsPerThread - 1], lane);
    T before_thread = __shfl_up_sync(kFullMask, warp_inclusive, 1);
    if (lane == 0) before_thread = T(0);
    if (lane == 31) warp_prefix[warp] = warp_inclusive;
    __syncthreads();  // every warp's total is in shared memory before warp 0 reads them

    if (warp == 0) {
        const T total = lane < kWarps ? warp_prefix[lane] : T(0);
        const T through = warp_inclusive_scan(total, lane);
        T warps_before = __shfl_up_sync(kFullMask, through, 1);
        if (lane == 0) warps_before = T(0);
        const T aggregate = __shfl_sync(kFullMask, through, kWarps - 1);  // the tile's total
        T carry = T(0);
        if (tile == 0) {
            if (lane == 0) publish(status, 0, kInclusive, to_bits(aggregate));
        } else {
            if (lane == 0) publish(status, tile, kAggregate, to_bits(aggregate));  // before waiting on anyone
            carry = look_back<T>(status, tile, lane);
            if (lane == 0) publish(status, tile, kInclusive, to_bits(scan_add(carry, aggregate)));
        }
        // The sum of everything before warp `lane`'s elements: the carry and the warps before it.
        if (lane < kWarps) warp_prefix[lane] = scan_add(carry, warps_before);
    }
    __syncthreads();  // warp 0's prefixes are in shared memory before every warp reads its own
    const T before = scan_add(warp_prefix[warp], before_thread);
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) v[j] = scan_add(before, v[j]);

    // Back through the same padded rows (every lane's reads above came before the barriers): blocked in,
    // coalesced rows out.
#pragma unroll
    for (int j = 0; j < kItemsPerThread; ++j) s[padded(lane * kItemsPerThread + j)] = v[j];
    __syncwarp();
    if (base + kWarpTile <= n) {
#pragma unroll
        for (int k = 0; k < kItemsPerThread; ++k) out[base + k * 32 + lane] = s[padded(k * 32 + lane)];
    } else {
#pragma unroll
        for (int k = 0; k < kItemsPerThread; ++k) {
            const std::size_t i = base + k * 32 + lane;
            if (i < n) out[i] = s[padded(k * 32 + lane)];
        }
    }
    // END STUDENT REGION
}

// Adds to every element of tile b > 0 the sum of all the tiles before it, carries[b - 1]: the last step of
// the scan-then-add tier (the single-pass tier launches only scan_tiles_kernel).
template <class T>
__global__ void __launch_bounds__(kBlockSize)
    add_carries_kernel(T* __restrict__ out, std::size_t n, const T* __restrict__ carries) {
    // BEGIN STUDENT REGION add_carries_kernel
    // Not launched by the single-pass scan: each tile adds its carry in scan_tiles_kernel.
    // END STUDENT REGION
}

// Scans in[0 .. n) into out. @p level counts how deep the scan-then-add tier has recursed into its own
// tiles' totals (0 for the caller's arrays): give each level its own scratch slots.
template <class T>
void scan_launch(const T* in, T* out, std::size_t n, int level) {
    // BEGIN STUDENT REGION launch
    // One launch, one block a tile. The counter and every tile's status start at zero in every call.
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

void inclusive_scan(const int* in, int* out, std::size_t n) { scan_launch(in, out, n, 0); }

void inclusive_scan(const float* in, float* out, std::size_t n) { scan_launch(in, out, n, 0); }

const void* graded_kernel() { return reinterpret_cast<const void*>(&scan_tiles_kernel<int>); }

}  // namespace lab08
