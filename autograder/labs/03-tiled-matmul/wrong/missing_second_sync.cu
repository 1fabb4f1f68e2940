// Known-wrong Lab 03: half-way double buffering — the next tile is fetched into registers while this
// one is used — but without the barrier between using a tile and storing the next one over it. A warp
// that finishes its 16 products first overwrites rows of Bs that slower warps have not read yet. This
// is a race, so it depends on timing; the prefetch widens the window (the next tile's values have
// usually arrived by the time a warp finishes, so it stores them at once), and at 1000^3 and 4096^3
// (about 17 million tile steps, several blocks per SM contending for shared memory) corrupted elements
// are expected on every run. Expected: wrong_result, with the race hint.
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged. The skeleton
// declares the kernel with __launch_bounds__(kThreads, kMinBlocksPerSm); the original had no launch
// bounds, and a real bound changes the code: with (256, 1), ptxas gives the kernel 10 to 16 more
// registers than the original's 31-32, so another schedule and a lower occupancy. So the
// configuration region sets both to 0, for which nvcc emits no bound at all: the kernel's machine
// code is byte-for-byte the original's.

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
// No launch bound, as the original kernel had none: for __launch_bounds__(0, 0) nvcc emits no
// .maxntid / .minnctapersm, so the kernel compiles to the same machine code as the original.
constexpr int kThreads = 0;
constexpr int kMinBlocksPerSm = 0;
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    const int tiles = (K + kTile - 1) / kTile;
    auto load_a = [&](int t) {
        const int k = t * kTile + tx;
        return row < M && k < K ? A[std::size_t(row) * K + k] : 0.0f;
    };
    auto load_b = [&](int t) {
        const int k = t * kTile + ty;
        return k < K && col < N ? B[std::size_t(k) * N + col] : 0.0f;
    };
    float acc = 0.0f;
    float a_next = load_a(0), b_next = load_b(0);
    for (int t = 0; t < tiles; ++t) {
        As[ty][tx] = a_next;
        Bs[ty][tx] = b_next;
        __syncthreads();
        if (t + 1 < tiles) a_next = load_a(t + 1), b_next = load_b(t + 1);
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        // BUG: no __syncthreads() here, before the next iteration stores over As and Bs
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
