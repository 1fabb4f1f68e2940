// Correct Lab 05, written differently from the top tier: the tile lives in dynamic shared memory,
// sized by the launcher for each filter size ((32 + 2R) x (64 + 2R) floats: 10,640 bytes for K = 7)
// and viewed through a pointer to rows of kTileW floats, so the kernel indexes it as tile[row][col]
// exactly like a static array. Everything else (32 x 8 threads, eight outputs a thread, every tile
// load in flight at once, each tile row read into registers once) is the previous reference's.
// It must pass every check.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: tile_shape)

// BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2;
    constexpr int kOutRows = kBlockY * kRowsPerThread;  // output rows one block covers
    constexpr int kTileW = kBlockX + 2 * R;
    constexpr int kTileH = kOutRows + 2 * R;
    constexpr int kThreads = kBlockX * kBlockY;
    constexpr int kLoads = (kTileW * kTileH + kThreads - 1) / kThreads;  // tile elements per thread
    extern __shared__ float tile_storage[];  // kTileH * kTileW floats, given at launch
    float(*const tile)[kTileW] = reinterpret_cast<float(*)[kTileW]>(tile_storage);  // (kTileH, kTileW)

    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R;   // image column of tile[.][0]
    const int y0 = static_cast<int>(blockIdx.y) * kOutRows - R;  // image row of tile[0][.]
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);

    // All of this thread's loads first (independent, all in flight), then all its stores to the tile.
    float staged[kLoads];
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        const int gy = y0 + e / kTileW, gx = x0 + e % kTileW;
        const bool inside = e < kTileW * kTileH && static_cast<unsigned>(gx) < static_cast<unsigned>(width) &&
                            static_cast<unsigned>(gy) < static_cast<unsigned>(height);
        // A pixel outside the image loads the always-valid in[0] and is replaced by 0.
        const float v = in[inside ? gy * width + gx : 0];
        staged[k] = inside ? v : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) tile[e / kTileW][e % kTileW] = staged[k];
    }
    __syncthreads();  // the whole tile, halo included, is in shared memory before anyone reads it

    // Each tile row this thread needs is read once, K values into registers, and added into every
    // one of its kRowsPerThread outputs that the row touches.
    const int ty0 = static_cast<int>(threadIdx.y) * kRowsPerThread;
    float acc[kRowsPerThread];
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int row = 0; row < kRowsPerThread + 2 * R; ++row) {
        float v[K];
#pragma unroll
        for (int j = 0; j < K; ++j) v[j] = tile[ty0 + row][threadIdx.x + j];
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p) {
            const int i = row - p;  // the filter row that meets this tile row in output p (a constant)
            if (i >= 0 && i < K) {
#pragma unroll
                for (int j = 0; j < K; ++j) acc[p] = fmaf(c_weights[i * K + j], v[j], acc[p]);
            }
        }
    }

    const int x = x0 + R + static_cast<int>(threadIdx.x);
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) {
        const int y = y0 + R + ty0 + p;
        if (x < width && y < height) out[y * width + x] = acc[p];  // the last tiles overhang the image
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    constexpr int R = K / 2;
    constexpr std::size_t kTileBytes =
        std::size_t(kBlockX + 2 * R) * std::size_t(kBlockY * kRowsPerThread + 2 * R) * sizeof(float);
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY * kRowsPerThread)));
    halo_convolution_kernel<K><<<grid, block, kTileBytes>>>(in, out, width, height);
// END STUDENT REGION
