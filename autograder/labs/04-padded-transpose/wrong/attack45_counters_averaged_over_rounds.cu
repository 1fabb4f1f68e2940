// Attack (Lab 04, against the timed counters, the forty-fifth round): Lab 01's
// attack45_counters_averaged_over_rounds where the counters have a ceiling as well as a floor: the first
// round runs the reference's tile with every float4 staged twice and 1.25 far tiles read more (0.60x
// cudaMemcpy, inside the near-miss window), the second a transpose with no shared memory (0.86x); their
// wavefronts average to 1.0 per 32 elements, inside [0.9, 1.4]. What catches it: every round is judged on
// its own counters too. Expected: technique_not_used (not yet graded on a GPU).
// The regions not given here are the solution's.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Two kernels in one, told apart by the launch's block shape (the same for every thread):
    //  - blocks of kTile x 16 threads (the launcher's first round): the reference 64 x 64 padded tile,
    //    every float4 of it passed through the tile a second time (stored back and loaded again by
    //    the thread that read it: twice the conflict-free wavefronts), and, where the matrix is whole
    //    tiles, an extra read of 1.25 tiles far away, thrown away: right, slowed to about 0.6x memcpy;
    //  - blocks of 256 x 1 threads (afterwards): no tile at all. Each thread moves 8 elements straight
    //    from input to output in registers (two float4 loads along input rows, 8 scalar stores down
    //    the output rows); shared memory is never touched.
    if (blockDim.y == 1) {
        const int tid = threadIdx.x;
        const int warp = tid / 32, lane = tid % 32;
        const int g = warp % 4, h = warp / 4;  // row group (16 rows) and column half (16 columns)
        const int k = lane / 4, q = lane % 4;
        const int r0 = blockIdx.y * 64, c0 = blockIdx.x * 32;
        const int rA = r0 + 16 * g + k;        // rows rA and rA + 8
        const int c = c0 + 16 * h + 4 * q;     // columns c .. c + 3
        const bool aligned4 = (reinterpret_cast<std::size_t>(in) % 16) == 0 && cols % 4 == 0;
        const bool whole = aligned4 && r0 + 64 <= rows && c0 + 32 <= cols;
        float v[8];
        if (whole) {
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
#pragma unroll
        for (int s = 0; s < 2; ++s) {
            const int r = rA + 8 * s;
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const int cc = c + t;
                if (whole || (r < rows && cc < cols)) out[std::size_t(cc) * rows + r] = v[4 * s + t];
            }
        }
        return;
    }
    constexpr int kSide = 2 * kTile;               // 64: the tile's side in elements (and the launch's)
    constexpr int kRowsOfThreads = 2 * kBlockRows;  // 16: the block is kTile x 16 threads
    __shared__ float4 blocks[kTile][kTile + 1];     // [output block row][output block column], padded

    const int tile_row0 = blockIdx.y * kSide;  // the tile's first input row
    const int tile_col0 = blockIdx.x * kSide;  // its first input column
    const int c = threadIdx.x;                 // the input block column this thread reads (columns 2c, 2c + 1)
    const bool aligned = (reinterpret_cast<std::size_t>(in) | reinterpret_cast<std::size_t>(out)) % 8 == 0;
    const bool full =
        aligned && cols % 2 == 0 && rows % 2 == 0 && tile_row0 + kSide <= rows && tile_col0 + kSide <= cols;
    constexpr int kSteps = kTile / kRowsOfThreads;  // 2 blocks a thread
    float2 top[kSteps], bottom[kSteps];
    const int col = tile_col0 + 2 * c;
    if (full) {
#pragma unroll
        for (int s = 0; s < kSteps; ++s) {
            const int row = tile_row0 + 2 * (threadIdx.y + s * kRowsOfThreads);
            top[s] = *reinterpret_cast<const float2*>(&in[std::size_t(row) * cols + col]);
            bottom[s] = *reinterpret_cast<const float2*>(&in[std::size_t(row + 1) * cols + col]);
        }
    } else {
        auto at = [&](int i, int j) { return i < rows && j < cols ? in[std::size_t(i) * cols + j] : 0.0f; };
#pragma unroll
        for (int s = 0; s < kSteps; ++s) {
            const int row = tile_row0 + 2 * (threadIdx.y + s * kRowsOfThreads);
            top[s] = make_float2(at(row, col), at(row, col + 1));
            bottom[s] = make_float2(at(row + 1, col), at(row + 1, col + 1));
        }
    }
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
        blocks[c][threadIdx.y + s * kRowsOfThreads] = make_float4(top[s].x, bottom[s].x, top[s].y, bottom[s].y);
    __syncthreads();

    // The slowing read: where the matrix is whole 64 x 64 tiles of aligned rows, 80 rows (1.25 tiles) of
    // tiles far away (the first 64 rows from the tile half the grid away, the rest from one a quarter of
    // the grid further down, so that no other block reads them while they could still be in L2; 1280
    // float4 loads by 512 threads), summed and dropped. Measured on an H200 (events in one process):
    // memcpy 0.132 ms, this kernel without the read 0.138 ms (0.96x), with it 0.220 ms (0.60x).
    if (rows % kSide == 0 && cols % kSide == 0 && (reinterpret_cast<std::size_t>(in) % 16) == 0) {
        const int tid = threadIdx.y * kTile + threadIdx.x;
        const unsigned gx = gridDim.x, gy = gridDim.y;
        float junk = 0.0f;
        for (int e = tid; e < 80 * 16; e += kTile * kRowsOfThreads) {
            const int row = e / 16, quad = e % 16;  // row of the extra rows, float4 of the row
            const unsigned tx = (blockIdx.x + gx / 2) % gx;
            const unsigned ty = (blockIdx.y + gy / 2 + static_cast<unsigned>(row / 64) * (gy / 4)) % gy;
            const float4 f = *reinterpret_cast<const float4*>(
                &in[(std::size_t(ty) * kSide + row % 64) * cols + std::size_t(tx) * kSide + 4 * quad]);
            junk += (f.x + f.y) + (f.z + f.w);
        }
        if (junk == -1.0e30f) out[0] = junk;  // never: keeps the loads
    }

    const int out_col = tile_row0 + 2 * c;
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
        const int b = threadIdx.y + s * kRowsOfThreads;
        float4 v = blocks[b][c];
        // The second pass through the tile: this thread's own float4, stored back (its components in
        // reverse order, so that the store is no copy of what was loaded and stays) and loaded again
        // after a barrier (so the load stays too): one more conflict-free STS.128 and LDS.128.
        blocks[b][c] = make_float4(v.w, v.z, v.y, v.x);
        __syncthreads();
        const float4 u = blocks[b][c];
        v = make_float4(u.w, u.z, u.y, u.x);
        const int out_row = tile_col0 + 2 * b;
        if (full) {
            *reinterpret_cast<float2*>(&out[std::size_t(out_row) * rows + out_col]) = make_float2(v.x, v.y);
            *reinterpret_cast<float2*>(&out[std::size_t(out_row + 1) * rows + out_col]) = make_float2(v.z, v.w);
        } else {
            const float vals[2][2] = {{v.x, v.y}, {v.z, v.w}};
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j)
                    if (out_row + i < cols && out_col + j < rows)
                        out[std::size_t(out_row + i) * rows + out_col + j] = vals[i][j];
        }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // The speed bench's process makes 1 + 13 * slots calls in its first measurement round (the gate's, a
    // warm-up batch, 9 timed and 3 sampled batches of `slots` calls: speed.hpp, isolation.cpp), slots being
    // bench_slots() of 1 GiB a slot (input, reference and two outputs of 8192 x 8192 floats): a quarter
    // of the GPU's memory, 2 to 8. Up to then the tile (slowed); after it, the tile-free kernel.
    static long long calls = 0;
    static const long long first_round_calls = [] {
        int device = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
        const std::size_t fit = prop.totalGlobalMem / 4 / (std::size_t(1) << 30);
        const long long slots = static_cast<long long>(std::min<std::size_t>(std::max<std::size_t>(fit, 2), 8));
        return 1 + 13 * slots;
    }();
    ++calls;
    if (calls <= first_round_calls) {
        constexpr int kSide = 2 * kTile;
        const dim3 block(kTile, 2 * kBlockRows);
        const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kSide)), static_cast<unsigned>(course::ceil_div(rows, kSide)));
        transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    } else {
        const dim3 block(256);
        const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, 32)), static_cast<unsigned>(course::ceil_div(rows, 64)));
        transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    }
// END STUDENT REGION

