// Correct Lab 04, written differently from the reference: one big 128 x 128 tile a block, padded to a
// row pitch of 129 floats and held in dynamic shared memory (66,048 bytes, more than the 48 KB a launch
// gets by default), so the launcher first raises the kernel's limit with cudaFuncSetAttribute. Blocks of
// 32 x 16 threads move 32 elements a thread with plain 4-byte accesses. It must pass every check.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Pitch 129 = 1 (mod 32): row-wise stores into the tile hit 32 consecutive banks, and a warp reading
    // down a column (words 129 * (c + lane) + r) hits banks (c + lane + r) % 32, all different.
    constexpr int kSide = 4 * kTile;     // 128: the tile's side, and the launch's
    constexpr int kPitch = kSide + 1;    // 129 floats a tile row
    constexpr int kThreadRows = 16;      // blockDim.y: the launch below uses the same
    extern __shared__ float tile[];      // kSide x kPitch floats, sized at launch

    const int tile_row0 = blockIdx.y * kSide;  // the tile's first input row
    const int tile_col0 = blockIdx.x * kSide;  // its first input column
    const int rows_here = rows - tile_row0;    // rows of the tile inside the matrix (may exceed kSide)
    const int cols_here = cols - tile_col0;    // and columns
    const int tx = threadIdx.x, ty = threadIdx.y;

    // Rows of the input into rows of the tile: each warp load covers 128 consecutive bytes.
#pragma unroll
    for (int c = 0; c < kSide; c += kTile) {
#pragma unroll
        for (int r = ty; r < kSide; r += kThreadRows)
            if (r < rows_here && c + tx < cols_here)
                tile[r * kPitch + c + tx] = in[std::size_t(tile_row0 + r) * cols + tile_col0 + c + tx];
    }
    __syncthreads();  // every element of the tile is in shared memory before any thread reads a column

    // Columns of the tile into rows of the output (cols x rows): coalesced stores again.
#pragma unroll
    for (int c = 0; c < kSide; c += kTile) {
#pragma unroll
        for (int r = ty; r < kSide; r += kThreadRows)
            if (r < cols_here && c + tx < rows_here)
                out[std::size_t(tile_col0 + r) * rows + tile_row0 + c + tx] = tile[(c + tx) * kPitch + r];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    constexpr int kSide = 4 * kTile;
    constexpr int kSharedBytes = kSide * (kSide + 1) * int(sizeof(float));  // 66,048 > 48 KB
    // Above 48 KB of dynamic shared memory a launch is refused unless the kernel opts in, once a process.
    static const bool opted_in = [] {
        CUDA_CHECK(cudaFuncSetAttribute(transpose_tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
        return true;
    }();
    (void)opted_in;
    const dim3 block(kTile, 16);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kSide)), static_cast<unsigned>(course::ceil_div(rows, kSide)));
    transpose_tile_kernel<<<grid, block, kSharedBytes>>>(in, out, rows, cols);
// END STUDENT REGION
