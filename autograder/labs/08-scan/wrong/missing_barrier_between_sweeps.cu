// FILL FROM: correct/blelloch_fenced_lookback.cu
// Known-wrong Lab 08, written against the correct variant that scans its threads' totals with the up-sweep
// and down-sweep (correct/blelloch_fenced_lookback.cu, whose other regions it takes): the __syncthreads()
// between the two sweeps is gone. The last thread reads the root (the tile's total) and clears it to 0, and
// thread 0's first down-sweep step reads the root: they are in different warps, and nothing orders them.
// Where thread 0 reads first, the whole tile is shifted by its own total. Which warp wins changes from block
// to block and run to run, so over the exact checks' thousands of blocks it shows as a wrong result (and
// racecheck reports the hazard too, but the wrong result comes first).
// Expected: wrong_result.
//
// Region-overlay form: only the kernel region.

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
    // BUG: no barrier between the sweeps: the root may be read before the last thread cleared it
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
