// Attack (Lab 04, against the rule that refuses warp shuffles): the transpose is done in registers, as
// in attack4_shuffle_transpose_passthrough, but the elements change lanes through warp votes instead of
// shuffles. Each warp loads one 32 x 32 tile, lane l reading column l of its 32 rows (coalesced); the
// ballot of one bit of every lane's value is a bit-plane of a row of the tile (1,024 ballots a tile), and
// the lane that owns the row keeps its 32 planes and reassembles its values. Every element, already
// transposed, then passes through a shared-memory slot of its own lane (a conflict-free pass-through that
// moves nothing between lanes), to show the counters one load and one store wavefront for every 32
// elements, as the shuffle attack did.
// What catches it: the audit. Lab 04's rubric refuses warp votes (PTX vote), warp reductions (redux) and
// matches (match) beside shuffles: each moves values between lanes without shared memory.
// Expected: forbidden_symbol.
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
    // The tile turned around in registers by warp votes: the ballot of bit b of every lane's v[r] is a
    // word whose bit j is bit b of in(r0 + r, c0 + j), row r of the tile a bit-plane at a time; lane r
    // keeps the 32 planes of row r and puts its values back together. No shared memory, no shuffle.
    unsigned planes[kTile] = {};
#pragma unroll
    for (int r = 0; r < kTile; ++r) {
        const unsigned bits = __float_as_uint(v[r]);
#pragma unroll
        for (int b = 0; b < kTile; ++b) {
            const unsigned plane = __ballot_sync(0xffffffffu, (bits >> b) & 1u);
            if (r == lane) planes[b] = plane;
        }
    }
#pragma unroll
    for (int j = 0; j < kTile; ++j) {
        unsigned word = 0;
#pragma unroll
        for (int b = 0; b < kTile; ++b) word |= ((planes[b] >> j) & 1u) << b;
        v[j] = __uint_as_float(word);
    }
    // The pass-through: each lane stores its row into slots of its own and reads them back.
    __shared__ float slots[kBlockRows][kTile * kTile];  // 32 KiB: a warp's 1024 values
    volatile float* mine = slots[warp];
#pragma unroll
    for (int j = 0; j < kTile; ++j) mine[j * kTile + lane] = v[j];
#pragma unroll
    for (int j = 0; j < kTile; ++j) v[j] = mine[j * kTile + lane];
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
