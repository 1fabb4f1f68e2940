// The reference solution of Lab 05 before its top tier changed: the one-column-a-thread kernel (32 x 8 threads, 8 output rows each, a 2-D grid).
// Not a variant itself: variants written against it name it on a line "// FILL FROM: wrong/previous_reference.cu",
// and take the regions they do not hold from here instead of from the current solution.

// BEGIN STUDENT REGION tile_shape
// Top tier: each thread computes a column of 8 outputs, so one block covers 32 x 64 outputs and
// the halo (2R rows and columns) is a small fraction of what it loads.
constexpr int kBlockX = 32;        // threads a block along x: one warp spans one row of the tile
constexpr int kBlockY = 8;         // threads a block along y
constexpr int kRowsPerThread = 8;  // outputs each thread computes, one above the other
// END STUDENT REGION

    // BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2;
    constexpr int kOutRows = kBlockY * kRowsPerThread;  // output rows one block covers
    constexpr int kTileW = kBlockX + 2 * R;
    constexpr int kTileH = kOutRows + 2 * R;
    constexpr int kThreads = kBlockX * kBlockY;
    constexpr int kLoads = (kTileW * kTileH + kThreads - 1) / kThreads;  // tile elements per thread
    __shared__ float tile[kTileH][kTileW];  // (kTileH, kTileW)

    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R;   // image column of tile[.][0]
    const int y0 = static_cast<int>(blockIdx.y) * kOutRows - R;  // image row of tile[0][.]
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);

    // Loads first, stores after: a thread's kLoads loads are independent and all in flight at
    // once, which is what keeps the memory system busy. Consecutive threads take consecutive tile
    // elements, so a warp reads contiguous row segments (coalesced) and writes consecutive shared
    // words (no bank conflicts).
    float staged[kLoads];  // this thread's share of the tile, in registers until every load is issued
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        const int gy = y0 + e / kTileW, gx = x0 + e % kTileW;
        // One unsigned comparison per axis also rejects negative coordinates.
        const bool inside = e < kTileW * kTileH && static_cast<unsigned>(gx) < static_cast<unsigned>(width) &&
                            static_cast<unsigned>(gy) < static_cast<unsigned>(height);
        // Branch-free: a pixel outside the image loads the always-valid in[0] and is replaced by 0
        // (the halo past the image edge), so no branch separates one load from the next.
        const float v = in[inside ? gy * width + gx : 0];
        staged[k] = inside ? v : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) tile[e / kTileW][e % kTileW] = staged[k];
    }
    __syncthreads();  // the whole tile, halo included, is in shared memory before anyone reads it

    // Register reuse: this thread's outputs are rows ty0 .. ty0 + kRowsPerThread - 1 of the block's
    // output, and they read tile rows ty0 .. ty0 + kRowsPerThread + 2R - 1. Each of those rows is read
    // from shared memory once, K values into registers, and added into every output it touches:
    // (kRowsPerThread + 2R) * K shared loads instead of kRowsPerThread * K * K.
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
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY * kRowsPerThread)));
    halo_convolution_kernel<K><<<grid, block>>>(in, out, width, height);
    // END STUDENT REGION
