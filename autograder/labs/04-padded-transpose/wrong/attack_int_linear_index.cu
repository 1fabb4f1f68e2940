// Known-wrong Lab 04 (an honest bug at sizes the grader never runs): the reference solution, except that
// every linear index is computed in int (row * cols + col), as a student used to small images writes it.
// The header's domain is rows and cols of 1 to 2^20 each, so rows * cols reaches 2^40; past 2^31 - 1
// elements (e.g. 46341 x 46341, 8 GiB a side) the index wraps negative and the kernel reads and writes
// outside the matrices. The largest matrix any Lab 04 check runs is the 8192 x 8192 bench (2^26 elements),
// and unlike Labs 01 and 02 there is no 2^31 + 5 check, so nothing graded reaches the overflow. A naive grader
// gives full marks; a correct one should fail it as wrong_result (or illegal_memory_access).
// Caught now: the ragged-shape check also transposes four shapes past 2^31 elements (32832 x 65600 and
// three more, every remainder mod 4 of each side) where the GPU had the memory free when grading started;
// the wrapped index reads and writes outside the matrices.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Top tier: a 64 x 64 tile moved by 32 x 16 threads, in 2 x 2 blocks of four floats.
    //
    // Each thread reads a 2 x 2 block of the input as two float2 loads (rows 2r and 2r + 1, columns 2c
    // and 2c + 1), turns it around in registers, and stores it to shared memory as one float4 at its
    // transposed place; after the barrier, each thread reads a float4 back along a tile row and writes it
    // as two float2 stores (two output rows). So every global access is 8 bytes wide, each warp's load or
    // store covers 256 consecutive bytes of one row, and a thread moves 8 elements with four loads and
    // four stores, half the instructions of a thread moving 8 floats one by one.
    //
    // The tile is a 32 x 32 grid of float4 blocks with one padding block a row: blocks[i][j] is 16-byte
    // unit 33 * i + j. A float4 access is served a quarter-warp (8 threads, 128 bytes) at a time; the 8
    // threads that store down a column (blocks[c..c + 7][r]) land on units 33 * c + r, whose banks
    // (4 * (33 * c + r)) % 32 = (4 * c + 4 * r) % 32 are 8 different groups of 4 banks: conflict-free,
    // for the same reason as the [32][33] tile's column read. The reads go along a row: conflict-free.
    // 32 x 33 x 16 = 16896 bytes.
    constexpr int kSide = 2 * kTile;               // 64: the tile's side in elements (and the launch's)
    constexpr int kRowsOfThreads = 2 * kBlockRows;  // 16: the block is kTile x 16 threads
    __shared__ float4 blocks[kTile][kTile + 1];     // [output block row][output block column], padded

    // BUG: the linear indices below are int products: past 2^31 - 1 elements they wrap.
    const int tile_row0 = blockIdx.y * kSide;  // the tile's first input row
    const int tile_col0 = blockIdx.x * kSide;  // its first input column
    const int c = threadIdx.x;                 // the input block column this thread reads (columns 2c, 2c + 1)

    // Interior fast path: a tile wholly inside the matrix, with rows that start on 8-byte boundaries (even
    // widths, 8-byte aligned arrays), needs no bounds test and may use float2. The test is the same for
    // every thread of the block, so the branch never splits a warp.
    const bool aligned = (reinterpret_cast<std::size_t>(in) | reinterpret_cast<std::size_t>(out)) % 8 == 0;
    const bool full =
        aligned && cols % 2 == 0 && rows % 2 == 0 && tile_row0 + kSide <= rows && tile_col0 + kSide <= cols;
    // Each thread's blocks: input block rows r = threadIdx.y + 16 s, for s = 0, 1. All its loads are
    // issued before any is used, so they are in flight together.
    constexpr int kSteps = kTile / kRowsOfThreads;  // 2 blocks a thread
    float2 top[kSteps], bottom[kSteps];             // each block's two rows (input rows 2r and 2r + 1)
    const int col = tile_col0 + 2 * c;
    if (full) {
#pragma unroll
        for (int s = 0; s < kSteps; ++s) {
            const int row = tile_row0 + 2 * (threadIdx.y + s * kRowsOfThreads);
            top[s] = *reinterpret_cast<const float2*>(&in[row * cols + col]);
            bottom[s] = *reinterpret_cast<const float2*>(&in[(row + 1) * cols + col]);
        }
    } else {
        auto at = [&](int i, int j) { return i < rows && j < cols ? in[i * cols + j] : 0.0f; };
#pragma unroll
        for (int s = 0; s < kSteps; ++s) {
            const int row = tile_row0 + 2 * (threadIdx.y + s * kRowsOfThreads);
            top[s] = make_float2(at(row, col), at(row, col + 1));
            bottom[s] = make_float2(at(row + 1, col), at(row + 1, col + 1));
        }
    }
    // Transposed, a block's output rows are (top.x, bottom.x) and (top.y, bottom.y); input block
    // (r, c) goes to output block row c, output block column r.
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
        blocks[c][threadIdx.y + s * kRowsOfThreads] = make_float4(top[s].x, bottom[s].x, top[s].y, bottom[s].y);

    // Every warp wrote blocks of 2 of the tile's 32 block columns; each reads from all of them.
    __syncthreads();

    // Output block (b, c): output rows 2b and 2b + 1 of the tile (input columns), output columns 2c and
    // 2c + 1 (input rows); out is cols x rows, so the tile's origin there swaps.
    const int out_col = tile_row0 + 2 * c;
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
        const int b = threadIdx.y + s * kRowsOfThreads;
        const float4 v = blocks[b][c];
        const int out_row = tile_col0 + 2 * b;
        if (full) {
            *reinterpret_cast<float2*>(&out[out_row * rows + out_col]) = make_float2(v.x, v.y);
            *reinterpret_cast<float2*>(&out[(out_row + 1) * rows + out_col]) = make_float2(v.z, v.w);
        } else {
            const float vals[2][2] = {{v.x, v.y}, {v.z, v.w}};
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    if (out_row + i < cols && out_col + j < rows)
                        out[(out_row + i) * rows + out_col + j] = vals[i][j];
        }
    }
// END STUDENT REGION
