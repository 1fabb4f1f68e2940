// Known-wrong Lab 03: rounds A and B to TF32 (10 mantissa bits, as the tensor cores' TF32 mode does)
// when staging them in shared memory. Exact on the small integers of the exact check, but products of
// random floats are off by about 2^-11 relative, far above the FP32 rounding bound at the small sizes.
// Expected: wrong_result, with the reduced-precision hint.
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged. Its __device__
// helper to_tf32 moves into the namespace-scope configuration region. The skeleton declares the
// kernel with __launch_bounds__(kThreads, kMinBlocksPerSm); the original had no launch bounds, and
// a real bound changes the code: with (256, 1), ptxas gives the kernel 10 to 16 more registers than
// the original's 31-32, so another schedule and a lower occupancy. So the configuration region sets
// both to 0, for which nvcc emits no bound at all: the kernel's machine code is byte-for-byte the
// original's.

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
// No launch bound, as the original kernel had none: for __launch_bounds__(0, 0) nvcc emits no
// .maxntid / .minnctapersm, so the kernel compiles to the same machine code as the original.
constexpr int kThreads = 0;
constexpr int kMinBlocksPerSm = 0;

// Round to nearest (ties away from zero) at 10 mantissa bits, like cvt.rna.tf32.f32.
__device__ float to_tf32(float x) { return __uint_as_float((__float_as_uint(x) + 0x1000u) & 0xFFFFE000u); }
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? to_tf32(A[std::size_t(row) * K + ka]) : 0.0f;  // BUG: TF32, not FP32
        Bs[ty][tx] = kb < K && col < N ? to_tf32(B[std::size_t(kb) * N + col]) : 0.0f;
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
