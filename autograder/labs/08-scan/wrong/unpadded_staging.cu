// Known-wrong Lab 08: the reference solution without the padding of its staging rows: padded(i) is i. Each
// thread's 16 consecutive elements then start at word 16 * lane, so lanes 0, 2, 4, ... read (and, on the
// way out, write) the same bank: a 16-way conflict on one of the two accesses of each staging, 17
// shared-memory wavefronts for every 32 elements each way where the padded rows take 2. The results are
// right everywhere. The grader cannot see conflicts as such here (the lab has no bank-conflict item: its
// staging is one of several correct ways to scan), so what catches it is the speed the conflicts cost: on
// an H100 or H200 the shared-memory pipe serves one wavefront (128 bytes) a clock an SM, so 34 wavefronts for
// every 32 elements cap the scan near 2.5e11 elements a second on 132 SMs at 1.98 GHz: about half of the
// 5e11 an H200 moves at its copy speed (4 TB/s, 8 bytes an element), about 0.5x CUB.
// Reasoned, not yet measured: it should pass the check against the naive scan and fail the one against
// CUB (threshold 0.70). Expected: too_slow.
//
// Region-overlay form: only the helpers region; the others are the reference solution's.

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
__host__ __device__ constexpr int padded(int i) { return i; }  // BUG: no padding: 16-way bank conflicts

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
