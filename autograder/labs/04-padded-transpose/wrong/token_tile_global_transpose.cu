// Known-wrong Lab 04: the naive transpose straight from global memory, with a token tile: each
// block's first warp stores its first row into a __shared__ tile and reads it back (its values are then
// written as the transpose would write them anyway). The kernel has shared memory, which takes its GPU
// time (the in-program technique check passes), but Nsight Compute's counts show one shared-memory store
// for every 32 elements loaded, where a tile stages every element.
// Expected: technique_not_used (the shared-memory-use check; skipped where ncu cannot read the counters).
//
// Region-overlay form: both regions given; the launch is the 32 x 32 tile's.

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float token[kTile];  // BUG (technique): one row of a tile, the rest never staged
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) {
            float v = in[std::size_t(row) * cols + col];
            if (threadIdx.y == 0 && j == 0) {
                token[threadIdx.x] = v;
                __syncwarp();
                v = token[threadIdx.x];
            }
            out[std::size_t(col) * rows + row] = v;
        }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
