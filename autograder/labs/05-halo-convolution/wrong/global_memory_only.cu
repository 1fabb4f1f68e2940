// Known-wrong Lab 05: correct, but every thread reads its K x K neighbourhood straight from global
// memory, like the naive baseline; no shared memory at all. The lab is about the halo tile.
// Expected: technique_not_used.
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
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int gx = x + j - R, gy = y + i - R;
            // BUG (technique): every tap is read straight from global memory, no shared tile
            if (gx >= 0 && gx < width && gy >= 0 && gy < height) acc += c_weights[i * K + j] * in[gy * width + gx];
        }
    if (x < width && y < height) out[y * width + x] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
