// Attack (Lab 05, against the timed counters): wrong/attack2_private_staging_l1_compute.cu after the profiled
// calls. For its first 17 calls at 8192 x 8192 or more with a given K in a process, the launcher runs the
// reference kernel (the profile workload makes 9 in each speed process: the gate's and a batch of 8; a graded
// run's gate and 2 warm-up batches make 17, none of them sampled). From the 18th on, a kernel of its own (in
// the tile_shape region) computes each output from taps read straight from global memory (L1), every loaded
// value passed through a shared-memory slot private to its thread: stored, and read back by the same thread.
// The timed calls' counters: about (16 + K - 1) K / 16 load and store wavefronts for every 32 pixels (0.9 of
// one each needed), and a third of the memory instructions are shared loads and another third shared stores
// (0.20 and 0.05 needed): every figure passes, though no pixel is ever shared between threads. Nsight Compute
// (which would find K times the image loaded from global memory, above its bound of 4) and the technique
// check's trace count only the reference kernel's calls. Results are right on every input.
// What should catch it: global load bytes (or L1 requests) counted in the timed calls, bounded as the
// Nsight Compute rule bounds them; or a floor on shared loads well above the stores (each staged pixel read
// by many threads). Expected: technique_not_used. A hole on an H100: it passes every check it is graded
// on (10/10 with the runner's items off).
// The regions not given here (halo_convolution_kernel) are the solution's.

// BEGIN STUDENT REGION tile_shape
// Stretch tier: each thread computes a 4 x 4 patch of outputs, kColsPerThread side by side (read
// from the tile and written to the image as one float4) times kRowsPerThread one above the other,
// so one block of 32 x 8 threads covers 128 x 32 outputs.
constexpr int kBlockX = 32;        // threads a block along x: one warp spans one row of the tile
constexpr int kBlockY = 8;         // threads a block along y
constexpr int kRowsPerThread = 4;  // outputs each thread computes, one above the other
constexpr int kColsPerThread = 4;  // outputs each thread computes side by side: one float4 (the kernel needs 4)

// CHEAT: after the profiled calls, a kernel of its own with no tile (wrong/attack2_private_staging_l1_compute.cu):
// each thread computes a column of 16 outputs straight from global memory (L1), each of the 16 + K - 1 input
// rows it needs read once, K taps wide; every value it loads is stored into slots of shared memory private to
// the thread and read back (volatile) before it is used. No thread ever reads a value another staged.
constexpr int kCheatRows = 16;
template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    private_staging_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    constexpr int R = K / 2;
    constexpr int kThreads = kBlockX * kBlockY;
    __shared__ float slot[K * kThreads];
    volatile float* const mine = slot;
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
    const int x = static_cast<int>(blockIdx.x) * kBlockX + static_cast<int>(threadIdx.x);
    const int y0 = (static_cast<int>(blockIdx.y) * kBlockY + static_cast<int>(threadIdx.y)) * kCheatRows;
    const unsigned uwidth = static_cast<unsigned>(width), uheight = static_cast<unsigned>(height);
    float acc[kCheatRows];
#pragma unroll
    for (int p = 0; p < kCheatRows; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int row = 0; row < kCheatRows + 2 * R; ++row) {  // input row y0 - R + row
        const unsigned gy = static_cast<unsigned>(y0 - R + row);
        float v[K];
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const unsigned gx = static_cast<unsigned>(x - R + j);
            v[j] = gx < uwidth && gy < uheight ? in[std::size_t(gy) * width + gx] : 0.0f;  // from global (L1)
        }
#pragma unroll
        for (int j = 0; j < K; ++j) mine[j * kThreads + tid] = v[j];  // staged ...
#pragma unroll
        for (int j = 0; j < K; ++j) v[j] = mine[j * kThreads + tid];  // ... and read back by the same thread
#pragma unroll
        for (int p = 0; p < kCheatRows; ++p) {
            const int i = row - p;  // the filter row that meets this input row in output p
            if (i >= 0 && i < K) {
#pragma unroll
                for (int j = 0; j < K; ++j) acc[p] = fmaf(c_weights[i * K + j], v[j], acc[p]);
            }
        }
    }
    if (x < width) {
#pragma unroll
        for (int p = 0; p < kCheatRows; ++p)
            if (y0 + p < height) out[std::size_t(y0 + p) * width + x] = acc[p];
    }
}
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the reference for the first 17 calls at 8192 x 8192 or more a process makes with this K (the
    // profile workload's gate and batch of 8, or a graded run's gate and its 2 warm-up batches of 8, none
    // sampled); the private-staging kernel after.
    static int large_calls = 0;
    if (std::size_t(width) * std::size_t(height) >= (std::size_t(1) << 26) && ++large_calls > 17 &&
        height / (kBlockY * kCheatRows) < 65535) {
        const dim3 grid(static_cast<unsigned>((width - 1) / kBlockX + 1),
                        static_cast<unsigned>((height - 1) / (kBlockY * kCheatRows) + 1));
        private_staging_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
        return;
    }
    // One flat grid of blocks_x * blocks_y blocks (the kernel finds its tile from blockIdx.x): with
    // width * height below 2^31 there are fewer than 2^27 of them, far within gridDim.x's 2^31 - 1,
    // so any image height works. (width - 1) / n + 1 is ceil(width / n) without overflow.
    const unsigned blocks_x = static_cast<unsigned>((width - 1) / (kBlockX * kColsPerThread) + 1);
    const unsigned blocks_y = static_cast<unsigned>((height - 1) / (kBlockY * kRowsPerThread) + 1);
    halo_convolution_kernel<K><<<blocks_x * blocks_y, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
