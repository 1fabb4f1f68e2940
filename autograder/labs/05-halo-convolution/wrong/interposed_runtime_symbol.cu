// Cheat, Lab 05: the grader times every contender with CUDA events (cudaEventElapsedTime). The
// tile_shape region is at namespace scope, so the student defines cudaEventElapsedTime there with C
// linkage (extern "C" gives it the runtime's own symbol name): an interval in which the student's
// launcher ran "takes" 1 us, any other 1 ms, so every speed ratio comes out at 1000x.
// Why it fails now: a namespace-scope region may not hold extern "C" (everything a lab defines stays
// in its namespace); the submission is refused before anything is compiled. (Behind that, the audit
// would refuse a definition of a CUDA runtime symbol outside namespace lab05.)
// Expected: refused_region.
//
// Region-overlay form: all three regions (the basic tier of one_output_per_thread.cu: a halo tile,
// one output per thread, correct but too slow, which is why the student cheats). The launch region raises the flag the fake timer reads.

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // one output per thread
// CHEAT: the runtime's event timer, replaced.
inline bool student_ran = false;
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = student_ran ? 0.001f : 1.0f;
    student_ran = false;
    return cudaSuccess;
}
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
    student_ran = true;  // CHEAT: tells the fake timer whose interval this is
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
