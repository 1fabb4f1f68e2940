// Known-wrong Lab 04: no __syncthreads() between writing the tile and reading it. Each warp loads
// 4 rows of the tile but reads elements from all 32, written by the other 7 warps; a warp whose
// loads return first reads tile slots those warps have not filled yet (stale values of an earlier
// block). With thousands of blocks, whose 32 loads each return hundreds of cycles apart, some
// elements come out wrong on every run. Expected: wrong_result.
//
// Region-overlay form: only the kernel region is given; the launch region is the reference
// solution's (same grid and block as this variant always used).

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
