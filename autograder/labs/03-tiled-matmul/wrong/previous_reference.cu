// The reference solution of Lab 03 before its top tier changed: the register-blocked kernel (128 x 128 block tile, 8 x 8 outputs a thread).
// Not a variant itself: variants written against it name it on a line "// FILL FROM: wrong/previous_reference.cu",
// and take the regions they do not hold from here instead of from the current solution.

// BEGIN STUDENT REGION configuration
// Top tier: register blocking. A block of 256 threads computes a 128 x 128 tile of C; each thread
// keeps an 8 x 8 micro-tile of it in registers. Per step along K a thread reads 8 values of A and
// 8 of B from shared memory and does 64 FMAs with them: 4 FMAs per float read instead of the basic
// tier's 1/2, which is what lets the FMA units, not shared memory, set the pace.
constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 128;  // columns of C per block
constexpr int kBK = 8;    // depth of one K tile
constexpr int kTM = 8;    // rows of the micro-tile
constexpr int kTN = 8;    // columns of the micro-tile
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
// 2 blocks x 256 threads x at most 128 registers = the whole register file of an SM: enough warps
// to hide latency, and a register budget that holds the 64 accumulators without spilling.
constexpr int kMinBlocksPerSm = 2;
// A is stored transposed (k-major), so a thread's 8 values of A at one k are contiguous and come in
// two float4 reads. The transposing store writes 4 different rows of As per thread; padding each row
// by 4 floats places those rows 16 banks apart, so the store is free of bank conflicts.
constexpr int kPadA = 4;

static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "each thread loads one float4 of A and one of B");
static_assert(kTM == 8 && kTN == 8 && kBM == 16 * kTM && kBN == 16 * kTN, "a 16 x 16 grid of 8 x 8 micro-tiles");

// Loads columns col..col+3 (col a multiple of 4) of row `row` of a rows x cols row-major matrix,
// with zeros for whatever lies outside it. `vec`: cols % 4 == 0 and m is 16-byte aligned, so the
// four floats are one aligned float4, entirely inside or entirely outside the matrix.
__device__ __forceinline__ float4 load_quad(const float* __restrict__ m, int rows, int cols, int row, int col,
                                            bool vec) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows || col >= cols) return v;
    const float* p = m + static_cast<std::size_t>(row) * cols + col;
    if (vec) return *reinterpret_cast<const float4*>(p);
    v.x = p[0];
    if (col + 1 < cols) v.y = p[1];
    if (col + 2 < cols) v.z = p[2];
    if (col + 3 < cols) v.w = p[3];
    return v;
}

// Stores v to columns col..col+3 of row `row` of C (rows x cols), dropping what lies outside.
__device__ __forceinline__ void store_quad(float* __restrict__ m, int rows, int cols, int row, int col, float4 v,
                                           bool vec) {
    if (row >= rows || col >= cols) return;
    float* p = m + static_cast<std::size_t>(row) * cols + col;
    if (vec) {
        *reinterpret_cast<float4*>(p) = v;
        return;
    }
    p[0] = v.x;
    if (col + 1 < cols) p[1] = v.y;
    if (col + 2 < cols) p[2] = v.z;
    if (col + 3 < cols) p[3] = v.w;
}
// END STUDENT REGION

    // BEGIN STUDENT REGION tiled_matmul_kernel
    // Two stages of each tile (double buffering): while the block computes on one, the next tile's
    // global loads are in flight into registers and then go to the other stage.
    __shared__ __align__(16) float As[2][kBK][kBM + kPadA];  // (stage, BK, BM + pad): A transposed
    __shared__ __align__(16) float Bs[2][kBK][kBN];          // (stage, BK, BN)

    const int tid = threadIdx.x;
    // Owner of each micro-tile: warps as 4 x 2, lanes as 4 x 8. At one k, a warp then reads 4
    // distinct float4 of As and 8 distinct (contiguous) float4 of Bs: each read is one wavefront.
    // A thread owns rows ty*4 + (0..3) and 64 + ty*4 + (0..3), columns likewise with tx: two
    // float4 halves 64 apart, so that neighbouring threads read and write neighbouring float4.
    const int warp = tid / 32, lane = tid % 32;
    const int ty = (warp / 2) * 4 + lane / 8;  // 0..15
    const int tx = (warp % 2) * 8 + lane % 8;  // 0..15

    const int a_row = tid / (kBK / 4), a_col = (tid % (kBK / 4)) * 4;  // this thread's float4 of the A tile
    const int b_row = tid / (kBN / 4), b_col = (tid % (kBN / 4)) * 4;  // this thread's float4 of the B tile
    const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

    // float4 access needs rows that start 16-byte aligned: a row length that is a multiple of 4.
    const bool vec_a = K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
    const bool vec_b = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
    const bool vec_c = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;

    auto stage_tiles = [&](int stage, float4 a, float4 b) {
        As[stage][a_col + 0][a_row] = a.x;  // transposed: As[k][m] = A(m, k)
        As[stage][a_col + 1][a_row] = a.y;
        As[stage][a_col + 2][a_row] = a.z;
        As[stage][a_col + 3][a_row] = a.w;
        *reinterpret_cast<float4*>(&Bs[stage][b_row][b_col]) = b;
    };

    float acc[kTM][kTN] = {};
    float4 a_next = load_quad(A, M, K, block_row + a_row, a_col, vec_a);
    float4 b_next = load_quad(B, K, N, b_row, block_col + b_col, vec_b);
    stage_tiles(0, a_next, b_next);
    __syncthreads();

    const int tiles = (K + kBK - 1) / kBK;
    for (int t = 0; t < tiles; ++t) {
        const int stage = t % 2;
        const bool more = t + 1 < tiles;
        if (more) {  // issued now, used after the compute below: the loads' latency hides behind 512 FMAs
            const int k0 = (t + 1) * kBK;
            a_next = load_quad(A, M, K, block_row + a_row, k0 + a_col, vec_a);
            b_next = load_quad(B, K, N, k0 + b_row, block_col + b_col, vec_b);
        }
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            const float4 a_lo = *reinterpret_cast<const float4*>(&As[stage][k][ty * 4]);
            const float4 a_hi = *reinterpret_cast<const float4*>(&As[stage][k][kBM / 2 + ty * 4]);
            const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[stage][k][tx * 4]);
            const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[stage][k][kBN / 2 + tx * 4]);
            const float a[kTM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b[kTN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The stage written here was last read in the previous iteration, which every thread
        // finished before the barrier that ended it: with two stages, one barrier per tile suffices.
        if (more) stage_tiles(stage ^ 1, a_next, b_next);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int row = block_row + (i / 4) * (kBM / 2) + ty * 4 + i % 4;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float4 v = make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            store_quad(C, M, N, row, block_col + h * (kBN / 2) + tx * 4, v, vec_c);
        }
    }
    // END STUDENT REGION

    // BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                    static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
    tiled_matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    // END STUDENT REGION
