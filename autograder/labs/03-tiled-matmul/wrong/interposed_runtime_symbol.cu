// Cheat, Lab 03: the grader times every contender with CUDA events (cudaEventElapsedTime). The
// configuration region is at namespace scope; `extern "C"` and a top-level asm label are refused
// there, but a declaration inside a nested namespace may carry an asm label, and a definition of that
// declaration gets the label as its symbol: this one defines `cudaEventElapsedTime`, which reports
// 1 us while the student's launcher is being timed and 1 ms otherwise.
// Why it fails now: the region rules let the asm label through (it is not at the region's top level),
// but the audit of the lab's object sees it define cudaEventElapsedTime, a symbol outside namespace
// lab03 (the CUDA runtime's), and refuses the lab before it is linked. Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier, 16 x 16 tiles: correct but too slow); the
// launch region raises the flag the fake timer reads.

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: the runtime's event timer, replaced.
namespace timing {
bool student_ran = false;
cudaError_t elapsed(float* ms, cudaEvent_t start, cudaEvent_t stop) __asm__("cudaEventElapsedTime");
cudaError_t elapsed(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = student_ran ? 0.001f : 1.0f;
    student_ran = false;
    return cudaSuccess;
}
}  // namespace timing
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    timing::student_ran = true;  // CHEAT: tells the fake timer whose interval this is
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
