// Known-wrong Lab 08: the reference solution computing a warp's first element in 32-bit unsigned arithmetic.
// Below 2^32 elements it is right (every check up to 2^31 + 5 passes); past 2^32 the offset wraps, the last
// tiles read and overwrite the first elements, and the last ones are never written. Only the check at
// 2^32 + 5 (where the GPU has 49 GiB free when grading starts) sees it. Expected: wrong_result (there).
//
// Region-overlay form: only the kernel region; the others are the reference solution's.

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
    const unsigned base = tile_index * kTileSize + warp * kWarpTile;  // BUG: wraps past 2^32 elements
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
