// Correct Lab 04 with another block shape: the reference's padded tile, moved by blocks of 32 x 4
// threads, eight elements a thread. It must pass every check.

// BEGIN STUDENT REGION transpose_tile_kernel
    constexpr int kRows = 4;                  // threads along y: the launch below uses the same
    __shared__ float tile[kTile][kTile + 1];  // (kTile, kTile + 1): one padding column
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows) out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, 4);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
