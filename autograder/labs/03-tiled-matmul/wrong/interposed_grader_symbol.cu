// Cheat, Lab 03: the speed check divides the time of the grader's naive kernel,
// lab03::baseline::naive_matmul, by the student's. The configuration region is at namespace scope
// inside namespace lab03, so it can open `namespace baseline` and define naive_matmul there itself:
// a one-thread-per-output kernel launched 20 times over, so the baseline looks 20x slower and the
// basic tier clears the 1st speed threshold. The region rules allow it (a nested namespace, no asm,
// no extern "C"), and the audit's namespace rule too: lab03::baseline::naive_matmul is in
// namespace lab03.
// Why it fails now: the grader's own code (its checks, its baselines, the course helpers) is linked
// as objects ahead of the lab's, and the audit refuses a lab object that defines any name the grader
// defines: here lab03::baseline::naive_matmul(float const*, float const*, float*, int, int, int).
// (Before, the check program had two definitions of one function and did not link.)
// Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier, 16 x 16 tiles: correct but too slow).

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: the grader's baseline, defined here as lab03::baseline::naive_matmul, 20x slower.
namespace baseline {
__global__ void slow_naive_kernel(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc = fmaf(A[std::size_t(row) * K + k], B[std::size_t(k) * N + col], acc);
    C[std::size_t(row) * N + col] = acc;
}
void naive_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const dim3 grid(static_cast<unsigned>((N + 15) / 16), static_cast<unsigned>((M + 15) / 16));
    for (int again = 0; again < 20; ++again) slow_naive_kernel<<<grid, dim3(16, 16)>>>(A, B, C, M, N, K);
}
}  // namespace baseline
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
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
