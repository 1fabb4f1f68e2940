// Known-wrong Lab 04 (a bug only a sanitizer sees): the reference solution, except that the tile load
// tests only the row before it reads: a thread loads in[row][col] for every column of the edge tile
// and tests col < cols afterwards, keeping the value only inside the matrix (a 0 in the tile past the
// right edge). For a column past the right edge, that read falls in the next row of the input
// (harmless) or, on the last row, up to 31 floats past the end of the input. The transpose is right:
// those values are always discarded, and the graded checks follow every input with more than a row of
// poison inside its allocation, so the reads cannot fault. Only memcheck, on an input allocated to its
// exact size, sees reads outside it. (The select keeps the load unconditional: with
// `if (col < cols) tile[..] = v;` instead, the compiler moves the load under the test and the bug
// disappears from the machine code.) Expected: memory_error.
//
// Region-overlay form: both regions given; the launch is the 32 x 32 tile's (the reference's now launches 64-row tiles).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 1];  // (kTile, kTile + 1): one padding column

    const int col = blockIdx.x * kTile + threadIdx.x;  // input column this thread reads
    const int row0 = blockIdx.y * kTile + threadIdx.y;  // input row of its first element
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows) {
            const float v = in[std::size_t(row) * cols + col];      // BUG: col is not tested before the load
            tile[threadIdx.y + j][threadIdx.x] = col < cols ? v : 0.0f;  // past the right edge: replaced by 0
        }
    }

    __syncthreads();

    const int out_col = blockIdx.y * kTile + threadIdx.x;  // an input row
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;  // an input column
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One block per tile; tiles along the columns on x (up to 2^31 - 1 blocks), along the rows on y
    // (at most 65535 blocks: 2^20 rows need 32768).
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
