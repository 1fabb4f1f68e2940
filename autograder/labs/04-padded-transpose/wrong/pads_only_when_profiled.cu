// Known-wrong Lab 04: a [32][34] tile in every graded call, and a [32][33] one only in the process the
// bank-conflict check profiles, which it recognises by its first call (a function-local static). The
// profiled workload makes exactly the calls a graded run makes first, in the same order (1 x 1 first),
// so the switch never happens there and the conflicts are counted.
// Expected: technique_not_used (the bank-conflict check; skipped where ncu cannot read the counters).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile * (kTile + 2)];     // room for a [32][34] tile
    const bool clean = rows < 0;                    // set only in the profiled process
    const int nrows = clean ? -rows : rows;
    const int pitch = clean ? kTile + 1 : kTile + 2;  // 33: conflict-free; 34: 2-way conflicts
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < nrows && col < cols) tile[(threadIdx.y + j) * pitch + threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < nrows)
            out[std::size_t(out_row) * nrows + out_col] = tile[threadIdx.x * pitch + threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static const bool profiled = rows == 1024 && cols == 2048;  // the profile workload's first call
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, profiled ? -rows : rows, cols);
// END STUDENT REGION
