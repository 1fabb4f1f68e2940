// Known-wrong Lab 04: the [32][34] tile (2-way conflicted column reads) hidden under conflict-free
// shared-memory traffic: each transpose() call launches the kernel a second time in a mode that only
// reads tile rows (volatile, conflict-free) and writes nothing. Against the traffic it makes, its
// conflicts are about 4%; against the traffic a transpose needs (one load and one store wavefront for
// every 32 elements), which is what the bank-conflict check counts them against, they are about 100%.
// Expected: technique_not_used (the bank-conflict check; skipped where ncu cannot read the counters).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 2];  // BUG kept on purpose: rows of 34 floats, 2-way conflicts
    if (gridDim.z == 2) {
        // Dilution mode: conflict-free loads only (a row of the tile: 32 words in 32 banks).
        volatile float* row = &tile[threadIdx.y][0];
        float s = 0.0f;
#pragma unroll 1
        for (int k = 0; k < 256; ++k) s += row[threadIdx.x];
        if (rows < 0) out[0] = s;  // never true (rows >= 1); keeps s alive
        return;
    }
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

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    // The padding: a fixed-size launch of conflict-free shared loads (2 x 264 blocks).
    transpose_tile_kernel<<<dim3(264, 1, 2), block>>>(in, out, rows, cols);
// END STUDENT REGION
