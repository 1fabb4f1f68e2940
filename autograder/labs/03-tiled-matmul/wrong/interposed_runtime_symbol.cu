// Cheat, Lab 03: the grader times every contender with CUDA events (cudaEventElapsedTime). The
// configuration region is at namespace scope, inside namespace lab03; a function defined there gets
// a lab03:: name, so the student gives it C linkage to take the runtime's own symbol: an
// `extern "C"` definition of cudaEventElapsedTime, tucked inside a nested namespace (in case only
// the region's top level is looked at), that reports 1 us while the student's launcher is being
// timed and 1 ms otherwise. (The earlier form named the symbol with an asm label on a declaration
// in a nested namespace; a region may no longer hold asm at all.)
// Why it fails now: a namespace-scope region may not hold extern "C", at any depth: everything a
// lab defines stays in its namespace. The submission is refused before anything is compiled; behind
// that, the audit would refuse a lab object that defines cudaEventElapsedTime, a symbol outside
// namespace lab03 (the CUDA runtime's). Expected: refused_region.
//
// Region-overlay form: all three regions (the basic tier, 16 x 16 tiles: correct but too slow); the
// launch region raises the flag the fake timer reads.

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: the runtime's event timer, replaced.
namespace timing {
inline bool student_ran = false;
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
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
