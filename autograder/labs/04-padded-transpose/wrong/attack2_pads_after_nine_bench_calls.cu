// Attack (Lab 04, against the bank-conflict check under Nsight Compute): a [32][34] tile (2-way bank
// conflicts on the column reads, fast enough for both speed checks) in every timed call, and the
// conflict-free [32][33] tile only in the calls Nsight Compute profiles. Unlike pads_only_when_profiled,
// which told the processes apart by their first call (and is caught: the profile workload repeats the
// graded run's exact-check calls in order), this one counts the calls at 8192 x 8192 its process has made
// (a function-local static in the launcher): the first 9 use [32][33]. The exact checks make none at that
// size; the speed process makes the gate's call and then batches of 8. The profile workload makes exactly
// 9 in its speed process (the gate and one batch), so it counts no conflict; a graded speed process makes
// 1 + 16 warm-up + 120 timed calls, all but the first 9 with the conflicted tile.
// What should catch it: the bank-conflict check, if the calls it profiles were not the first of their
// process (e.g. an unpredictable number of unprofiled batches before the profiled one). Expected:
// technique_not_used (the bank-conflict item; skipped where ncu cannot read the counters).
// Caught by the timed calls' counters (Lab 04's checks.cpp): its timed calls' tile needs more wavefronts than a
// conflict-free one.

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile * (kTile + 2)];       // room for a [32][34] tile
    const bool clean = rows < 0;                      // set in the first 9 calls at 8192 x 8192
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
    static int bench_calls = 0;  // calls at the benchmark size made by this process
    const bool clean = rows == 8192 && cols == 8192 && ++bench_calls <= 9;
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, clean ? -rows : rows, cols);
// END STUDENT REGION
