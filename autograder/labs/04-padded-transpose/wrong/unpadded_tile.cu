// Known-wrong Lab 04: the reference kernel with an unpadded tile, [32][32]. Correct, and it stages
// the tile in shared memory, but a warp reading one tile column, tile[0..31][c], hits bank c 32
// times over: every column read is replayed 32 ways. Expected: too_slow.
//
// Region-overlay form: only the kernel region is given; the launch region is the reference
// solution's (same grid and block as this variant always used).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile];  // BUG (speed): no padding column
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
// END STUDENT REGION
