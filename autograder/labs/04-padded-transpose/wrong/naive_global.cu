// Known-wrong Lab 04: the naive transpose, straight from global memory, one element a thread.
// Correct at every size, but no shared memory, so its stores are 32 floats `rows` apart: the lab
// is about the shared-memory tile. Expected: technique_not_used.
//
// Region-overlay form: both regions given; the launch is the 32 x 32 tile's (the reference's now launches 64-row tiles).

// BEGIN STUDENT REGION transpose_tile_kernel
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        // BUG (technique): no shared-memory tile; the store to out is strided by `rows`
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One block per tile; tiles along the columns on x (up to 2^31 - 1 blocks), along the rows on y
    // (at most 65535 blocks: 2^20 rows need 32768).
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
