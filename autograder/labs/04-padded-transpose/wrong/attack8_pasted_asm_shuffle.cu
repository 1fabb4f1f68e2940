// Attack (Lab 04, eighth round, against the audit's PTX scan of refused instructions): the register transpose of
// attack4_shuffle_transpose_passthrough, its shuffles written as inline PTX. The region rules refuse the
// identifiers asm/__asm/__asm__, but glibc's <sys/cdefs.h> (in every lab's translation unit through
// <cstddef>/<string>) defines __CONCAT(x,y) as x ## y: __CONCAT(__as, m__) pastes the keyword __asm__,
// which the region lexer never sees as one identifier. The PTX text is "shfl .sync.bfly.b32" (a space
// before the first modifier, which ptxas accepts), so the scan, which looked for "shfl.", missed it;
// the SASS holds SHFL.BFLY.
// What catches it: the audit reads the preprocessed source, where the region's line holds __asm__
// (region_code_in_preprocessed); the PTX scan now also allows white space before the '.'.
// Expected: refused_region.
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
    // The tile turned around in registers: five butterfly stages of shuffles (16, 8, 4, 2, 1), each
    // swapping half of a lane's values with its partner's; no shared memory.
#pragma unroll
    for (int b = kTile / 2; b > 0; b /= 2) {
        const bool upper = (lane & b) != 0;
#pragma unroll
        for (int j = 0; j < kTile; ++j) {
            if (j & b) continue;
            const float send = upper ? v[j] : v[j | b];
            float got;
            __CONCAT(__as, m__) volatile("shfl .sync.bfly.b32 %0, %1, %2, 31, -1;" : "=f"(got) : "f"(send), "r"(b));
            if (upper) v[j] = got;
            else v[j | b] = got;
        }
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
