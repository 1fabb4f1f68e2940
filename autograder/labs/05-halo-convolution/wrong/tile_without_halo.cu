// Known-wrong Lab 05: the tile holds only the block's own 32 x 8 pixels, no halo. A tap that falls
// outside the tile is taken as 0, as if it were outside the image, so outputs within K / 2 pixels
// of every tile edge miss some of their neighbours. Expected: wrong_result.
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
    constexpr int R = K / 2;
    __shared__ float tile[kBlockY][kBlockX];  // BUG: no room for the halo
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    tile[threadIdx.y][threadIdx.x] = x < width && y < height ? in[y * width + x] : 0.0f;
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int ty = static_cast<int>(threadIdx.y) + i - R, tx = static_cast<int>(threadIdx.x) + j - R;
            if (ty >= 0 && ty < kBlockY && tx >= 0 && tx < kBlockX) acc += c_weights[i * K + j] * tile[ty][tx];
        }
    if (x < width && y < height) out[y * width + x] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
