// Known-wrong Lab 04: the [32][34] tile (2-way conflicted column reads) as a persistent grid-stride
// kernel started with cudaLaunchCooperativeKernel, plus one tiny ordinary launch that makes a few
// conflict-free shared loads. Were a kind of launch left out of Nsight Compute's report, its conflicts
// would go uncounted; the bank-conflict check requires every row of the report to read, and any kernel
// ncu could not profile is a measurement missing (grader_integrity).
// Expected: technique_not_used (the cooperative launch is profiled like any other; skipped where ncu
// cannot read the counters).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile][kTile + 2];  // 2-way conflicted column reads, kept
    if (gridDim.z == 2) {                     // pad mode: 8 conflict-free loads, nothing written
        volatile float* row = &tile[threadIdx.y][0];
        const float s = row[threadIdx.x];
        if (rows < 0) out[0] = s;
        return;
    }
    const int tiles_x = (cols + kTile - 1) / kTile;
    const int tiles = tiles_x * ((rows + kTile - 1) / kTile);
    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int bx = t % tiles_x, by = t / tiles_x;
        const int col = bx * kTile + threadIdx.x;
        const int row0 = by * kTile + threadIdx.y;
#pragma unroll
        for (int j = 0; j < kTile; j += kBlockRows) {
            const int row = row0 + j;
            if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
        }
        __syncthreads();
        const int out_col = by * kTile + threadIdx.x;
        const int out_row0 = bx * kTile + threadIdx.y;
#pragma unroll
        for (int j = 0; j < kTile; j += kBlockRows) {
            const int out_row = out_row0 + j;
            if (out_row < cols && out_col < rows)
                out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
        }
        __syncthreads();  // the tile is reused by the next iteration
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    static int resident = 0;  // co-resident blocks on this GPU
    if (resident == 0) {
        int device = 0, sms = 0, per_sm = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_tile_kernel, kTile * kBlockRows, 0));
        resident = sms * per_sm;
    }
    const long long tiles = static_cast<long long>(course::ceil_div(cols, kTile)) * course::ceil_div(rows, kTile);
    const unsigned blocks = static_cast<unsigned>(tiles < resident ? tiles : resident);
    void* args[] = {&in, &out, &rows, &cols};
    CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&transpose_tile_kernel), dim3(blocks), block, args, 0, nullptr));
    transpose_tile_kernel<<<dim3(1, 1, 2), block>>>(in, out, rows, cols);  // the pad: 8 wavefronts, no conflicts
// END STUDENT REGION
