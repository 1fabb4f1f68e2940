// Known-wrong Lab 08: a correct single-pass scan with no shared memory at all: each warp scans a tile of
// 512 elements of its own in registers, row by row with warp shuffles, and looks back across warp tiles
// (the reference's helpers). Fast and right everywhere, but not the technique the lab teaches.
// Expected: technique_not_used (scan_tiles_kernel declares no shared memory).
//
// Region-overlay form: the kernel and launch regions are this variant's; the others are the reference's.

// BEGIN STUDENT REGION scan_tiles_kernel
    // BUG: no __shared__ memory at all: every warp scans a tile of 512 elements of its own, row by row with
    // shuffles, and looks back across warp tiles; the graded technique is not used.
    auto* counter = static_cast<unsigned*>(share);
    auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(share) + kStatusOffset);
    const unsigned lane = threadIdx.x % 32;
    unsigned taken = 0;
    if (lane == 0) taken = atomicAdd(counter, 1u);
    const std::size_t tile = __shfl_sync(kFullMask, taken, 0);
    const std::size_t tiles = (n + kWarpTile - 1) / kWarpTile;
    if (tile >= tiles) return;
    const std::size_t base = tile * kWarpTile;
    T v[kItemsPerThread];
    T running = T(0);
    for (int k = 0; k < kItemsPerThread; ++k) {
        const std::size_t i = base + k * 32 + lane;
        const T x = warp_inclusive_scan(i < n ? in[i] : T(0), lane);
        v[k] = scan_add(running, x);
        running = scan_add(running, __shfl_sync(kFullMask, x, 31));
    }
    T carry = T(0);
    if (tile == 0) {
        if (lane == 0) publish(status, 0, kInclusive, to_bits(running));
    } else {
        if (lane == 0) publish(status, tile, kAggregate, to_bits(running));
        carry = look_back<T>(status, tile, lane);
        if (lane == 0) publish(status, tile, kInclusive, to_bits(scan_add(carry, running)));
    }
    for (int k = 0; k < kItemsPerThread; ++k) {
        const std::size_t i = base + k * 32 + lane;
        if (i < n) out[i] = scan_add(carry, v[k]);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One warp a tile of kWarpTile elements, kWarps tiles a block.
    const std::size_t tiles = course::ceil_div(n, std::size_t(kWarpTile));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(course::ceil_div(tiles, std::size_t(kWarps))), kBlockSize>>>(in, out, n, share);
// END STUDENT REGION
