// Correct Lab 04, written differently from the reference: no padding column but an XOR swizzle
// (element (r, c) of the tile lives at tile[r][c ^ r], so a row and a column of the tile each touch 32
// different banks), and blocks of 32 x 16 threads, two elements a thread. It must pass every check.

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile];  // (kTile, kTile), swizzled: (r, c) at [r][c ^ r]
    const int tx = threadIdx.x, step = blockDim.y;
    const int col = blockIdx.x * kTile + tx;
#pragma unroll 4
    for (int j = threadIdx.y; j < kTile; j += step) {
        const int row = blockIdx.y * kTile + j;
        if (row < rows && col < cols) tile[j][tx ^ j] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + tx;
#pragma unroll 4
    for (int j = threadIdx.y; j < kTile; j += step) {
        const int out_row = blockIdx.x * kTile + j;
        if (out_row < cols && out_col < rows) out[std::size_t(out_row) * rows + out_col] = tile[tx][j ^ tx];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, 16);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
