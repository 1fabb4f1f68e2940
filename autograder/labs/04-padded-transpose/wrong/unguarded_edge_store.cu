// Known-wrong Lab 04: the store checks out_row < cols but not out_col < rows. In the last tile
// column of the output, threads past the edge store the zeros the guarded load left in the tile at
// out[out_row][rows..]: inside the output that is the start of the next row (the wrong place), and
// in the output's last row it is up to 31 floats past its end. Every shape with rows not a multiple
// of 32, 1 x 1 included, writes past the end. Expected: out_of_bounds_write.
//
// Region-overlay form: both regions given; the launch is the 32 x 32 tile's (the reference's now launches 64-row tiles).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 1];
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        tile[threadIdx.y + j][threadIdx.x] = row < rows && col < cols ? in[std::size_t(row) * cols + col] : 0.0f;
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols)  // BUG: no out_col < rows
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
