// The reference solution of Lab 04 before its top tier changed: a 64 x 32 tile of [64][33] floats, moved by 32 x 8 threads, 8 elements a thread.
// Not a variant itself: variants written against it name it on a line "// FILL FROM: wrong/previous_reference.cu",
// and take the regions they do not hold from here instead of from the current solution.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Top tier: a tall tile of 64 input rows x 32 input columns, moved by the same 32 x 8 threads, so
    // each thread moves 8 elements (kTileRows / kBlockRows) instead of the 32 x 32 tile's 4.
    //
    // Why 8 a thread: DRAM answers a load only after hundreds of cycles, so bandwidth is bytes in flight
    // divided by that latency (Little's law). A thread issues all its loads before the barrier, so a
    // block has 256 threads x 8 x 4 B = 8 KiB in flight instead of 4 KiB, and an SM full of such blocks
    // (8 blocks, 2048 threads) up to 64 KiB instead of 32 KiB. A GPU with more bandwidth per SM (the
    // H200) needs the extra bytes to stay busy. On the store side, each output row gets 64 consecutive
    // floats (256 bytes) from a block instead of 32.
    //
    // The padding column still makes the column reads conflict-free: tile[r][c] is word 33 * r + c, in
    // bank (33 * r + c) % 32 = (r + c) % 32, so the 32 threads of a warp reading tile[s..s + 31][c] hit
    // 32 different banks instead of bank c 32 times. The tile is 64 x 33 x 4 = 8448 bytes.
    constexpr int kTileRows = 2 * kTile;          // input rows of a tile; the launch's grid uses the same
    __shared__ float tile[kTileRows][kTile + 1];  // (kTileRows, kTile + 1): one padding column

    const int tile_row0 = blockIdx.y * kTileRows;  // the tile's first input row
    const int tile_col0 = blockIdx.x * kTile;      // its first input column
    const int col = tile_col0 + threadIdx.x;       // input column this thread reads
    const int row0 = tile_row0 + threadIdx.y;      // input row of its first element

    // Interior fast path: a tile wholly inside the matrix needs no bounds test. The test is the same for
    // every thread of the block, so the branch never splits a warp; only the edge tiles pay for guards.
    const bool full = tile_row0 + kTileRows <= rows && tile_col0 + kTile <= cols;
    if (full) {
#pragma unroll
        for (int j = 0; j < kTileRows; j += kBlockRows)
            tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row0 + j) * cols + col];
    } else {
#pragma unroll
        for (int j = 0; j < kTileRows; j += kBlockRows) {
            const int row = row0 + j;
            if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
        }
    }

    // Every warp writes 8 rows of the tile but reads from all 64: wait for all of them.
    __syncthreads();

    // The output tile is kTile x kTileRows (out is cols x rows) and its origin swaps the block indices.
    // Each warp writes output rows out_row0 + j, each as two runs of 32 consecutive floats (s = 0, 32).
    const int out_row0 = tile_col0 + threadIdx.y;  // output row = an input column
    const int out_col0 = tile_row0 + threadIdx.x;  // output column = an input row
    if (full) {
#pragma unroll
        for (int j = 0; j < kTile; j += kBlockRows)
#pragma unroll
            for (int s = 0; s < kTileRows; s += kTile)
                out[std::size_t(out_row0 + j) * rows + out_col0 + s] = tile[threadIdx.x + s][threadIdx.y + j];
    } else {
#pragma unroll
        for (int j = 0; j < kTile; j += kBlockRows)
#pragma unroll
            for (int s = 0; s < kTileRows; s += kTile) {
                const int out_row = out_row0 + j, out_col = out_col0 + s;
                if (out_row < cols && out_col < rows)
                    out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x + s][threadIdx.y + j];
            }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One block per 64 x 32 tile (kTileRows input rows, kTile input columns); kTileRows must equal the
    // kernel's. Tiles along the columns on x (up to 2^31 - 1 blocks), along the rows on y (at most 65535
    // blocks: 2^20 rows need 16384).
    constexpr int kTileRows = 2 * kTile;
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTileRows)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
