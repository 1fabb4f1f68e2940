// Known-wrong Lab 04: the naive transpose, straight from global memory, one element a thread.
// Correct at every size, but no shared memory, so its stores are 32 floats `rows` apart: the lab
// is about the shared-memory tile. Expected: technique_not_used.
//
// Region-overlay form: only the kernel region is given; the launch region is the reference
// solution's (same grid and block as this variant always used).

// BEGIN STUDENT REGION transpose_tile_kernel
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        // BUG (technique): no shared-memory tile; the store to out is strided by `rows`
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
    }
// END STUDENT REGION
