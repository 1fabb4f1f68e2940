// Attack (Lab 04, against the technique evidence, the forty-fifth round): no tile. Each thread loads two
// float4 along input rows and writes eight scalar stores down output rows; no element changes lanes. Every
// value also passes through the thread's own shared-memory slot and back, one conflict-free wavefront per
// 32 elements for loads and stores alike: the counters of a staged tile, bytes staged equal to bytes
// loaded for Nsight Compute, and no conflicts. Unlike attack9_register_transpose_private_passthrough
// (0.47x cudaMemcpy, too_slow) it is fast: measured by a helper in a standalone program on an H200, 0.87x
// cudaMemcpy and 6.9x the naive kernel (thresholds 0.65 and 4.5). What would catch it: evidence that
// shared loads return other threads' stores. Expected: technique_not_used. A known hole by reading; not
// yet graded on a GPU.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION transpose_tile_kernel
    // No tile. Each thread moves 8 elements straight from input to output in registers: two float4
    // loads along input rows (rows rA and rA + 8, columns c .. c + 3), then 8 scalar stores down
    // the output rows c .. c + 3. A warp covers 8 input rows x 16 columns, 4 lanes a row: each load
    // instruction reads 8 x 64 contiguous bytes (full sectors), and each store instruction writes
    // 4 output rows x 8 consecutive floats (one 32-byte sector each). No element ever changes lanes.
    // Every value also passes through this thread's own __shared__ slot and straight back (volatile),
    // one scalar store and one scalar load a value: a warp's 32 lanes write 32 consecutive words, one
    // conflict-free wavefront for every 32 elements, in loads and in stores alike.
    constexpr int kThreads = 256;              // 8 warps
    constexpr int kTileRows = 64, kTileCols = 32;
    __shared__ float slot[8][kThreads];        // (8, kThreads): a thread's own 8 words
    const int tid = threadIdx.x;
    const int warp = tid / 32, lane = tid % 32;
    const int g = warp % 4, h = warp / 4;      // row group (16 rows) and column half (16 columns)
    const int k = lane / 4, q = lane % 4;
    const int r0 = blockIdx.y * kTileRows, c0 = blockIdx.x * kTileCols;
    const int rA = r0 + 16 * g + k;            // this thread's rows: rA and rA + 8
    const int c = c0 + 16 * h + 4 * q;         // its columns: c .. c + 3
    const bool aligned = (reinterpret_cast<std::size_t>(in) % 16) == 0 && cols % 4 == 0;
    const bool full = aligned && r0 + kTileRows <= rows && c0 + kTileCols <= cols;
    float v[8];
    if (full) {
        const float4 a = *reinterpret_cast<const float4*>(&in[std::size_t(rA) * cols + c]);
        const float4 b = *reinterpret_cast<const float4*>(&in[std::size_t(rA + 8) * cols + c]);
        v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
    } else {
#pragma unroll
        for (int s = 0; s < 2; ++s)
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const int r = rA + 8 * s, cc = c + t;
                v[4 * s + t] = (r < rows && cc < cols) ? in[std::size_t(r) * cols + cc] : 0.0f;
            }
    }
    volatile float* mine = &slot[0][0];
#pragma unroll
    for (int e = 0; e < 8; ++e) mine[e * kThreads + tid] = v[e];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = mine[e * kThreads + tid];
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        const int r = rA + 8 * s;              // an output column
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            const int cc = c + t;              // an output row
            if (full || (r < rows && cc < cols)) out[std::size_t(cc) * rows + r] = v[4 * s + t];
        }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // One block of 256 threads a 64 x 32 piece of the input: columns on x, rows on y (100003 rows need 1563).
    const dim3 block(256);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, 32)), static_cast<unsigned>(course::ceil_div(rows, 64)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION

