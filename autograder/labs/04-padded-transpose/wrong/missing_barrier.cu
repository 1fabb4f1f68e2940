// Known-wrong Lab 04: no __syncthreads() between writing the tile and reading it. Each warp loads
// 4 rows of the tile but reads elements from all 32, written by the other 7 warps; a warp whose
// loads return first reads tile slots those warps have not filled yet (stale values of an earlier
// block). With thousands of blocks, whose 32 loads each return hundreds of cycles apart, some
// elements come out wrong on every run. Expected: wrong_result.
//
// Region-overlay form: both regions given; the launch is the 32 x 32 tile's (the reference's now launches 64-row tiles).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 1];
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    // BUG: no __syncthreads() here
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One block per tile; tiles along the columns on x (up to 2^31 - 1 blocks), along the rows on y
    // (at most 65535 blocks: 2^20 rows need 32768).
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
