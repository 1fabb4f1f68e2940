// Attack (Lab 04, against the timed counters' floor a call): half of the matrix goes through the shared
// tile, the other half is transposed in registers. Each warp moves one 32 x 32 tile; warps of even tile
// number turn it around through a padded [32][33] tile of their own in shared memory (conflict-free, the
// lab's technique), warps of odd tile number with five butterfly stages of __shfl_xor_sync and no shared
// memory. Both are right on every shape. Nsight Compute counts bytes staged half the bytes loaded (at least
// 0.5 asked: on the edge) and no bank conflict; the kernel has shared memory and does the work. The timed
// calls show half a load and half a store wavefront for every 32 elements, where the timed rule asks 0.9
// of one: the timed calls' counters fail it (technique_not_used). The audit is first: Lab 04's rubric
// refuses warp shuffles (PTX shfl) in device code. Expected: forbidden_symbol.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Each warp moves one 32 x 32 tile; a block's 8 warps take 8 consecutive tiles of the row-major order
    // of tiles (a flat grid: any shape fits). Lane l reads column l of the tile's 32 rows (coalesced).
    constexpr int kWarps = kBlockRows;  // 8 warps, kTile x kBlockRows threads
    const int lane = static_cast<int>(threadIdx.x), warp = static_cast<int>(threadIdx.y);
    const std::size_t tiles_c = (static_cast<std::size_t>(cols) + kTile - 1) / kTile;
    const std::size_t tiles_r = (static_cast<std::size_t>(rows) + kTile - 1) / kTile;
    const std::size_t t = std::size_t(blockIdx.x) * kWarps + warp;
    if (t >= tiles_r * tiles_c) return;  // whole warps only: no barrier below
    const std::size_t r0 = (t / tiles_c) * kTile, c0 = (t % tiles_c) * kTile;
    const std::size_t urows = static_cast<std::size_t>(rows), ucols = static_cast<std::size_t>(cols);

    float v[kTile];  // v[r] = in(r0 + r, c0 + lane)
#pragma unroll
    for (int r = 0; r < kTile; ++r)
        v[r] = r0 + r < urows && c0 + lane < ucols ? in[(r0 + r) * ucols + c0 + lane] : 0.0f;
    if (t % 2 == 1) {
        // The tile turned around in registers: five butterfly stages of shuffles (16, 8, 4, 2, 1), each
        // swapping half of a lane's values with its partner's; no shared memory.
#pragma unroll
        for (int b = kTile / 2; b > 0; b /= 2) {
            const bool upper = (lane & b) != 0;
#pragma unroll
            for (int j = 0; j < kTile; ++j) {
                if (j & b) continue;
                const float send = upper ? v[j] : v[j | b];
                const float got = __shfl_xor_sync(0xffffffffu, send, b);
                if (upper) v[j] = got;
                else v[j | b] = got;
            }
        }
    } else {
        // The lab's technique: through a padded tile of the warp's own, rows in, columns out.
        __shared__ float tile[kBlockRows][kTile][kTile + 1];
#pragma unroll
        for (int r = 0; r < kTile; ++r) tile[warp][r][lane] = v[r];
        __syncwarp();
#pragma unroll
        for (int j = 0; j < kTile; ++j) v[j] = tile[warp][lane][j];
    }
    // Lane l now holds row l of the tile: v[j] = in(r0 + l, c0 + j), which is out(c0 + j, r0 + l).
#pragma unroll
    for (int j = 0; j < kTile; ++j)
        if (c0 + j < ucols && r0 + lane < urows) out[(c0 + j) * urows + r0 + lane] = v[j];
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One warp a 32 x 32 tile, 8 tiles a block of kTile x kBlockRows threads, on a flat grid.
    const std::size_t tiles = static_cast<std::size_t>(course::ceil_div(rows, kTile)) *
                              static_cast<std::size_t>(course::ceil_div(cols, kTile));
    const std::size_t blocks = (tiles + kBlockRows - 1) / kBlockRows;
    transpose_tile_kernel<<<static_cast<unsigned>(blocks), dim3(kTile, kBlockRows)>>>(in, out, rows, cols);
// END STUDENT REGION
