// Known-wrong Lab 04: the store turns each tile around but puts it back at the input tile's
// position: block (bx, by) writes output tile (by, bx) instead of (bx, by). Every store is inside
// the output (it is bounded by the output's shape), but with more than one tile, tiles land in the
// wrong place and some output tiles are never written. Expected: wrong_result, deterministically.
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
    __syncthreads();
    const int out_col = blockIdx.x * kTile + threadIdx.x;   // BUG: should be blockIdx.y * kTile + threadIdx.x
    const int out_row0 = blockIdx.y * kTile + threadIdx.y;  // BUG: should be blockIdx.x * kTile + threadIdx.y
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
// END STUDENT REGION
