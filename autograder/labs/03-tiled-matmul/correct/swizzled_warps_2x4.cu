// Correct Lab 03, written differently from the reference: the same register-blocked, double-buffered
// 128 x 128 x 8 tile (256 threads, an 8 x 8 micro-tile each, float4 loads and stores), with another
// thread mapping and another bank-conflict cure. The warps are arranged 2 x 4 over the tile of C, and
// the lanes of a warp 8 x 4 (the reference: 4 x 2 and 4 x 8), so at one k a warp reads 8 distinct
// float4 of A and 4 of B. A is stored transposed without padding: instead, the rows k = 4..7 of the A
// tile are XOR-swizzled (column m at m ^ 16), which places the two rows a warp's transposing store
// writes at once 16 banks apart, while every float4 stays contiguous and aligned. It must pass every
// check.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: launch)

// BEGIN STUDENT REGION configuration
constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 128;  // columns of C per block
constexpr int kBK = 8;    // depth of one K tile
constexpr int kTM = 8;    // rows of the micro-tile
constexpr int kTN = 8;    // columns of the micro-tile
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
constexpr int kMinBlocksPerSm = 2;  // 2 x 256 threads x at most 128 registers: the whole register file

static_assert(kBM * kBK / 4 == kThreads && kBK * kBN / 4 == kThreads, "each thread loads one float4 of A and one of B");
static_assert(kTM == 8 && kTN == 8 && kBM == 16 * kTM && kBN == 16 * kTN, "a 16 x 16 grid of 8 x 8 micro-tiles");

// Where column m of row k of the transposed A tile lives: rows 4..7 have bit 4 of m flipped. A float4
// at a multiple of 4 stays a contiguous, 16-byte aligned float4 (bits 0..3 are untouched).
__device__ __forceinline__ int swizzled(int k, int m) { return m ^ ((k & 4) << 2); }

// Columns col..col+3 of row `row` of a rows x cols row-major matrix, zeros outside it; `vec`: the four
// floats are one aligned float4 (cols % 4 == 0, m 16-byte aligned), entirely inside or outside.
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
    __shared__ __align__(16) float As[2][kBK][kBM];  // (stage, BK, BM): A transposed, rows 4..7 swizzled
    __shared__ __align__(16) float Bs[2][kBK][kBN];  // (stage, BK, BN)

    const int tid = threadIdx.x;
    // Warps as 2 x 4, lanes as 8 x 4: a thread owns rows ty*4 + (0..3) and 64 + ty*4 + (0..3) of the
    // block's tile, and columns tx*4 + (0..3) and 64 + tx*4 + (0..3).
    const int warp = tid / 32, lane = tid % 32;
    const int ty = (warp / 4) * 8 + lane / 4;  // 0..15
    const int tx = (warp % 4) * 4 + lane % 4;  // 0..15

    const int a_row = tid / (kBK / 4), a_col = (tid % (kBK / 4)) * 4;  // this thread's float4 of the A tile
    const int b_row = tid / (kBN / 4), b_col = (tid % (kBN / 4)) * 4;  // this thread's float4 of the B tile
    const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

    const bool vec_a = K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
    const bool vec_b = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
    const bool vec_c = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;

    // a_col is 0 or 4, so this thread's four k rows all share one swizzle.
    const int a_dst = swizzled(a_col, a_row);
    auto stage_tiles = [&](int stage, float4 a, float4 b) {
        As[stage][a_col + 0][a_dst] = a.x;  // transposed: As[k][m] = A(m, k)
        As[stage][a_col + 1][a_dst] = a.y;
        As[stage][a_col + 2][a_dst] = a.z;
        As[stage][a_col + 3][a_dst] = a.w;
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
        if (more) {  // in flight while the FMAs below run
            const int k0 = (t + 1) * kBK;
            a_next = load_quad(A, M, K, block_row + a_row, k0 + a_col, vec_a);
            b_next = load_quad(B, K, N, k0 + b_row, block_col + b_col, vec_b);
        }
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            const float4 a_lo = *reinterpret_cast<const float4*>(&As[stage][k][swizzled(k, ty * 4)]);
            const float4 a_hi = *reinterpret_cast<const float4*>(&As[stage][k][swizzled(k, kBM / 2 + ty * 4)]);
            const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[stage][k][tx * 4]);
            const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[stage][k][kBN / 2 + tx * 4]);
            const float a[kTM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b[kTN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The other stage was last read before the barrier that ended the previous iteration.
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

