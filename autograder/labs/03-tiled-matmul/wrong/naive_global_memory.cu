// Known-wrong Lab 03: the naive kernel — one thread per element of C, every operand read from global
// memory, no shared memory at all. Correct (and not even very slow: L1 and L2 serve most re-reads),
// but the lab is about tiling through shared memory. Expected: technique_not_used.
//
// Region-overlay form: this variant's kernel and launch, unchanged. The skeleton declares the
// kernel with __launch_bounds__(kThreads, kMinBlocksPerSm); the original had no launch bounds, and
// a real bound changes the code: with (256, 1), ptxas gives the kernel 10 to 16 more registers than
// the original's 31-32, so another schedule and a lower occupancy. So the configuration region sets
// both to 0, for which nvcc emits no bound at all: the kernel's machine code is byte-for-byte the
// original's.

// BEGIN STUDENT REGION configuration
constexpr int kEdge = 16;                // edge of the square blocks of C
// No launch bound, as the original kernel had none: for __launch_bounds__(0, 0) nvcc emits no
// .maxntid / .minnctapersm, so the kernel compiles to the same machine code as the original.
constexpr int kThreads = 0;
constexpr int kMinBlocksPerSm = 0;
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    const int row = blockIdx.y * kEdge + threadIdx.y, col = blockIdx.x * kEdge + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    // BUG: every operand is read from global memory: no __shared__ tiles
    for (int k = 0; k < K; ++k) acc = fmaf(A[std::size_t(row) * K + k], B[std::size_t(k) * N + col], acc);
    C[std::size_t(row) * N + col] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kEdge, kEdge);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kEdge)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kEdge)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
