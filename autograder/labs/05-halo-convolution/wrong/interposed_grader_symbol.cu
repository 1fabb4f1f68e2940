// Cheat, Lab 05: the 7x7 speed check divides the time of the grader's naive kernel,
// lab05::baseline::naive_convolve, by the student's. The tile_shape region is at namespace scope
// inside namespace lab05, so it can open `namespace baseline` and define naive_convolve there itself:
// the naive kernel launched 10 times over, so the baseline looks 10x slower (it is also the reference
// of the benchmark-size gate, and it still computes the right image: the filter comes from the
// student's own constant memory). The region rules allow it (a nested namespace, no asm, no
// extern "C"), and the audit's namespace rule too: lab05::baseline::naive_convolve is in
// namespace lab05.
// Why it fails now: the grader's own code (its checks, its baselines, the course helpers) is linked
// as objects ahead of the lab's, and the audit refuses a lab object that defines any name the grader
// defines: here lab05::baseline::naive_convolve(float const*, float*, int, int, int). (Before, the
// check program had two definitions of one function and did not link.) Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier of one_output_per_thread.cu: a halo tile,
// one output per thread, correct but too slow, which is why the student cheats).

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // one output per thread
// CHEAT: the grader's baseline, defined here as lab05::baseline::naive_convolve, 10x slower.
namespace baseline {
__global__ void slow_naive_kernel(const float* in, float* out, int width, int height, int K) {
    const int x = static_cast<int>(blockIdx.x * 32 + threadIdx.x), y = static_cast<int>(blockIdx.y * 8 + threadIdx.y);
    if (x >= width || y >= height) return;
    const int R = K / 2;
    float acc = 0.0f;
    for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j) {
            const int gx = x + j - R, gy = y + i - R;
            if (gx >= 0 && gx < width && gy >= 0 && gy < height) acc += c_weights[i * K + j] * in[gy * width + gx];
        }
    out[y * width + x] = acc;
}
void naive_convolve(const float* in, float* out, int width, int height, int K) {
    const dim3 grid(static_cast<unsigned>((width + 31) / 32), static_cast<unsigned>((height + 7) / 8));
    for (int again = 0; again < 10; ++again) slow_naive_kernel<<<grid, dim3(32, 8)>>>(in, out, width, height, K);
}
}  // namespace baseline
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
            const bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            tile[e / kTileW][e % kTileW] = inside ? in[gy * width + gx] : 0.0f;
        }
    }
    __syncthreads();
    // BUG (speed): one output per thread, K * K shared-memory reads for each output
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
