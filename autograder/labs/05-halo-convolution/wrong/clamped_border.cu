// Known-wrong Lab 05: the halo at the image border is filled by clamping to the nearest edge pixel
// (a common choice in image processing, but not this lab's convention: outside the image is 0).
// Wrong within K / 2 pixels of the border. Expected: wrong_result.
//
// Region-overlay form. The original defined only kBlockX = 32 and kBlockY = 8; the skeleton
// also needs kRowsPerThread (its static_assert), so tile_shape sets it to 1, which this variant
// does not use. Its kernel and launch code are the originals; the skeleton adds
// __launch_bounds__(kBlockX * kBlockY) (the block it launches anyway), names the launcher
// launch_halo_convolution, and makes convolve() reject images smaller than 1 x 1.

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // not used by this variant: one output per thread
// END STUDENT REGION

// BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2, kTileW = kBlockX + 2 * R, kTileH = kBlockY + 2 * R, kThreads = kBlockX * kBlockY;
    __shared__ float tile[kTileH][kTileW];
    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R, y0 = static_cast<int>(blockIdx.y) * kBlockY - R;
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
#pragma unroll
    for (int k = 0; k < (kTileW * kTileH + kThreads - 1) / kThreads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) {
            const int gx = x0 + e % kTileW, gy = y0 + e / kTileW;
            const int cx = min(max(gx, 0), width - 1), cy = min(max(gy, 0), height - 1);  // BUG: clamps
            tile[e / kTileW][e % kTileW] = in[cy * width + cx];
        }
    }
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) acc += c_weights[i * K + j] * tile[threadIdx.y + i][threadIdx.x + j];
    const int x = x0 + R + static_cast<int>(threadIdx.x), y = y0 + R + static_cast<int>(threadIdx.y);
    if (x < width && y < height) out[y * width + x] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
