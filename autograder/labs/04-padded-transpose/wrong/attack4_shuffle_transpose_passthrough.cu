// Attack (Lab 04, against the timed counters and the Nsight Compute items): the transpose is done in
// registers, not in shared memory. Each warp loads one 32 x 32 tile, lane l reading column l of its 32
// rows (coalesced), turns it around with five butterfly stages of __shfl_xor_sync (80 shuffles a tile), and
// stores each output row coalesced. To satisfy the counters, every element, already transposed, is then
// passed through shared memory on its way out: stored into a slot of the warp's own and loaded back by the
// same lane (volatile, so both are issued), a conflict-free pass-through that moves nothing between lanes.
// So every call shows exactly one shared-memory load and one store wavefront for every 32 elements (1.0
// of what the timed rule asks, within its 1.4 bound); about 0.15 wavefronts a memory instruction (shuffles
// count as memory instructions; 0.10 needed); Nsight Compute counts bytes staged equal to bytes loaded,
// bytes read back equal to bytes stored, and no bank conflict; the kernel has shared memory and does all
// the work (the technique check's trace). The pass-through costs little: the kernel is bound by DRAM.
// Nothing switches: every call, profiled, traced or timed, is the same.
// What catches it: nothing that counts wavefronts or bytes can (only where the elements change lanes
// tells it from a tile); the audit can: Lab 04's rubric refuses warp shuffles (PTX shfl) in device code,
// since in this lab the tile's elements change lanes through shared memory.
// Expected: forbidden_symbol (it was a hole on an H100 before that rule: 10/10 with the runner's items off).
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
            const float got = __shfl_xor_sync(0xffffffffu, send, b);
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
