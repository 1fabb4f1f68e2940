// Correct Lab 08, written differently from the reference: still one pass with decoupled look-back, but
// - the tile (2048 elements, 8 a thread) is staged through one block-wide padded array with __syncthreads(),
//   not warp by warp;
// - the threads' totals are scanned by the work-efficient up-sweep and down-sweep (Blelloch) in padded shared
//   memory, not by warp shuffles;
// - each tile's status lives in three words (a flag, its aggregate, its inclusive prefix), ordered by
//   __threadfence() between a value and its flag and read through volatile pointers, not in one packed
//   word with release/acquire atomics.
// Expected: pass.
//
// Region-overlay form: every region is this variant's.

// BEGIN STUDENT REGION helpers
inline constexpr int kItemsPerThread = 8;                       // elements each thread scans
inline constexpr int kTileSize = kBlockSize * kItemsPerThread;  // 2048 elements a tile
inline constexpr unsigned kAllLanes = 0xffffffffu;

// One padding word after every 32: a row of 32 consecutive elements, and the eight-apart reads of a thread's
// own elements, both fall in 32 different banks.
__host__ __device__ constexpr int pad(int i) { return i + (i >> 5); }

// Tile flags: what a tile has published so far.
inline constexpr unsigned kNothing = 0, kHasAggregate = 1, kHasInclusive = 2;

// The scratch memory's layout: the tile counter, then a flag, an aggregate and an inclusive prefix a tile.
struct TileBoard {
    unsigned* counter;
    unsigned* flags;
    unsigned* aggregates;  // the values' bits
    unsigned* inclusives;
    __host__ __device__ static std::size_t bytes(std::size_t tiles) { return 256 + 3 * tiles * sizeof(unsigned); }
    __host__ __device__ TileBoard(void* share, std::size_t tiles) {
        char* p = static_cast<char*>(share);
        counter = reinterpret_cast<unsigned*>(p);
        flags = reinterpret_cast<unsigned*>(p + 256);
        aggregates = flags + tiles;
        inclusives = aggregates + tiles;
    }
};

template <class T>
__device__ __forceinline__ unsigned bits_of(T v) {
    if constexpr (std::is_same_v<T, float>) return __float_as_uint(v);
    else return static_cast<unsigned>(v);
}
template <class T>
__device__ __forceinline__ T value_of(unsigned u) {
    if constexpr (std::is_same_v<T, float>) return __uint_as_float(u);
    else return static_cast<T>(u);
}

// The value first, then a fence, then the flag: whoever sees the flag sees the value.
__device__ __forceinline__ void post(unsigned* value_slot, unsigned* flag_slot, unsigned value, unsigned flag) {
    *reinterpret_cast<volatile unsigned*>(value_slot) = value;
    __threadfence();
    *reinterpret_cast<volatile unsigned*>(flag_slot) = flag;
}
// END STUDENT REGION

// BEGIN STUDENT REGION scan_tiles_kernel
    __shared__ T tile[pad(kTileSize)];       // (2048 + 64) elements of the tile
    __shared__ T totals[pad(kBlockSize)];    // (256 + 8) threads' totals, swept in place
    __shared__ T carry_in;
    __shared__ unsigned my_tile;

    const std::size_t tiles = (n + kTileSize - 1) / kTileSize;
    const TileBoard board(share, tiles);
    const unsigned t = threadIdx.x;
    if (t == 0) my_tile = atomicAdd(board.counter, 1u);
    __syncthreads();
    const std::size_t first = std::size_t(my_tile) * kTileSize;

    // Block-wide staging: coalesced rows in, each thread's 8 consecutive elements out.
    for (int k = 0; k < kItemsPerThread; ++k) {
        const int j = k * kBlockSize + static_cast<int>(t);
        tile[pad(j)] = first + j < n ? in[first + j] : T(0);
    }
    __syncthreads();
    T v[kItemsPerThread];
    T run = T(0);
    for (int k = 0; k < kItemsPerThread; ++k) {
        run = scan_add(run, tile[pad(static_cast<int>(t) * kItemsPerThread + k)]);
        v[k] = run;
    }
    totals[pad(static_cast<int>(t))] = run;
    __syncthreads();

    // Up-sweep: partial sums up a balanced tree; the root ends at the last element.
    for (int stride = 1; stride < kBlockSize; stride *= 2) {
        if (static_cast<int>(t) < kBlockSize / (2 * stride)) {
            const int right = (2 * static_cast<int>(t) + 2) * stride - 1, left = right - stride;
            totals[pad(right)] = scan_add(totals[pad(left)], totals[pad(right)]);
        }
        __syncthreads();
    }
    // The root is the tile's total; the last thread keeps it and clears the root for the down-sweep.
    T aggregate = T(0);
    if (t == kBlockSize - 1) {
        aggregate = totals[pad(kBlockSize - 1)];
        totals[pad(kBlockSize - 1)] = T(0);
    }
    __syncthreads();  // between the sweeps: the root is cleared before the down-sweep reads it
    // Down-sweep: each node hands its prefix to its left child and prefix + left to its right child.
    for (int stride = kBlockSize / 2; stride >= 1; stride /= 2) {
        if (static_cast<int>(t) < kBlockSize / (2 * stride)) {
            const int right = (2 * static_cast<int>(t) + 2) * stride - 1, left = right - stride;
            const T left_value = totals[pad(left)];
            totals[pad(left)] = totals[pad(right)];
            totals[pad(right)] = scan_add(totals[pad(right)], left_value);
        }
        __syncthreads();
    }

    // Look-back, by the last warp (its last lane holds the aggregate).
    if (t / 32 == kBlockSize / 32 - 1) {
        const unsigned lane = t % 32;
        aggregate = __shfl_sync(kAllLanes, aggregate, 31);
        T carry = T(0);
        const std::size_t me = my_tile;
        if (me == 0) {
            if (lane == 31) post(&board.inclusives[0], &board.flags[0], bits_of(aggregate), kHasInclusive);
        } else {
            if (lane == 31) post(&board.aggregates[me], &board.flags[me], bits_of(aggregate), kHasAggregate);
            long long nearest = static_cast<long long>(me) - 1;  // lane k looks at tile nearest - k
            for (;;) {
                const long long p = nearest - static_cast<long long>(lane);
                unsigned flag = kHasInclusive, value = 0;  // before tile 0: an inclusive prefix of 0
                if (p >= 0) {
                    const volatile unsigned* f = board.flags + p;
                    while ((flag = *f) == kNothing) {
                    }
                    __threadfence();  // the flag was read before the value it guards
                    value = flag == kHasInclusive ? *reinterpret_cast<const volatile unsigned*>(board.inclusives + p)
                                                  : *reinterpret_cast<const volatile unsigned*>(board.aggregates + p);
                }
                const unsigned done = __ballot_sync(kAllLanes, flag == kHasInclusive);
                const int stop = done ? __ffs(done) - 1 : 31;
                T part = static_cast<int>(lane) <= stop ? value_of<T>(value) : T(0);
                for (int offset = 16; offset > 0; offset /= 2) part = scan_add(part, __shfl_down_sync(kAllLanes, part, offset));
                carry = scan_add(__shfl_sync(kAllLanes, part, 0), carry);
                if (done) break;
                nearest -= 32;
            }
            if (lane == 31) post(&board.inclusives[me], &board.flags[me], bits_of(scan_add(carry, aggregate)), kHasInclusive);
        }
        if (lane == 31) carry_in = carry;
    }
    __syncthreads();

    // Every element: the carry, the threads before, and its own running sum; staged back for coalesced stores.
    const T before = scan_add(carry_in, totals[pad(static_cast<int>(t))]);
    for (int k = 0; k < kItemsPerThread; ++k) tile[pad(static_cast<int>(t) * kItemsPerThread + k)] = scan_add(before, v[k]);
    __syncthreads();
    for (int k = 0; k < kItemsPerThread; ++k) {
        const int j = k * kBlockSize + static_cast<int>(t);
        if (first + j < n) out[first + j] = tile[pad(j)];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION add_carries_kernel
    // Not launched: each tile adds its carry in scan_tiles_kernel.
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = TileBoard::bytes(tiles);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));  // the counter and every flag start at zero
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
// END STUDENT REGION
