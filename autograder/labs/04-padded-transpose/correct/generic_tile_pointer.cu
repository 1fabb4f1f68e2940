// Correct Lab 04, written differently: the [32][33] tile reached only through a pointer the compiler
// cannot prove is shared (chosen at run time between the tile and global memory; it is always the tile),
// so the kernel accesses it with generic loads and stores rather than LDS/STS. Nsight Compute counts
// generic accesses that land in shared memory as shared-memory wavefronts, so the bank-conflict check
// must see them, conflict-free.

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 1];
    float* t = rows > 0 ? &tile[0][0] : out;  // always the tile; the compiler cannot know
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) t[(threadIdx.y + j) * (kTile + 1) + threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = t[threadIdx.x * (kTile + 1) + threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
