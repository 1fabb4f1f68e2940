// Correct Lab 03, written differently from the reference: the tiles live in dynamic shared memory, carved
// at run time out of one extern array whose size the launcher passes (33,280 bytes), and each K tile is
// 16 deep instead of 8, so a block meets one barrier per 16 steps along K instead of 8. The register
// blocking is the reference's: 256 threads, a 128 x 128 tile of C a block, an 8 x 8 micro-tile a thread
// read as float4 from shared memory, two stages (the next tile's global loads in flight during the
// FMAs), A transposed with rows padded by 4 floats. Each thread now loads two float4 of A (columns
// k0 + c and k0 + 8 + c of one row, c = 0 or 4, so a warp's transposing store still writes two rows of
// As 16 banks apart) and two float4 of B. It must pass every check.

// BEGIN STUDENT REGION configuration
constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 128;  // columns of C per block
constexpr int kBK = 16;   // depth of one K tile
constexpr int kTM = 8;    // rows of the micro-tile
constexpr int kTN = 8;    // columns of the micro-tile
constexpr int kThreads = (kBM / kTM) * (kBN / kTN);  // 256
constexpr int kMinBlocksPerSm = 2;  // 2 x 256 threads x at most 128 registers: the whole register file
constexpr int kPadA = 4;            // rows of the transposed A tile 132 floats apart: 4 banks further each
constexpr int kAStride = kBM + kPadA;
// The dynamic shared memory of one block: two stages of the transposed A tile, then two of the B tile.
constexpr int kAFloats = 2 * kBK * kAStride;
constexpr int kBFloats = 2 * kBK * kBN;
constexpr std::size_t kSharedBytes = (kAFloats + kBFloats) * sizeof(float);  // 33,280

static_assert(kBM * kBK / 4 == 2 * kThreads && kBK * kBN / 4 == 2 * kThreads, "two float4 of A and two of B a thread");
static_assert(kTM == 8 && kTN == 8 && kBM == 16 * kTM && kBN == 16 * kTN, "a 16 x 16 grid of 8 x 8 micro-tiles");
static_assert(kAFloats % 4 == 0 && kAStride % 4 == 0, "every row of both tiles starts 16-byte aligned");

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
    extern __shared__ float4 shared_tiles[];  // kSharedBytes, given at launch (float4: 16-byte aligned)
    float* const As = reinterpret_cast<float*>(shared_tiles);  // [stage][k][m], row pitch kAStride: A transposed
    float* const Bs = As + kAFloats;                            // [stage][k][n], row pitch kBN

    const int tid = threadIdx.x;
    // The reference's owners of the micro-tiles: warps as 4 x 2, lanes as 4 x 8; a thread owns rows
    // ty*4 + (0..3) and 64 + ty*4 + (0..3), columns tx*4 + (0..3) and 64 + tx*4 + (0..3).
    const int warp = tid / 32, lane = tid % 32;
    const int ty = (warp / 2) * 4 + lane / 8;  // 0..15
    const int tx = (warp % 2) * 8 + lane % 8;  // 0..15

    // A tile (128 x 16): row tid / 2, columns a_col .. a_col + 3 and a_col + 8 .. a_col + 11.
    const int a_row = tid / 2, a_col = (tid % 2) * 4;
    // B tile (16 x 128): rows b_row and b_row + 8, columns b_col .. b_col + 3.
    const int b_row = tid / (kBN / 4), b_col = (tid % (kBN / 4)) * 4;
    const int block_row = blockIdx.y * kBM, block_col = blockIdx.x * kBN;

    const bool vec_a = K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
    const bool vec_b = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
    const bool vec_c = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;

    float4 a_next[2], b_next[2];
    auto load_tiles = [&](int k0) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            a_next[h] = load_quad(A, M, K, block_row + a_row, k0 + h * 8 + a_col, vec_a);
            b_next[h] = load_quad(B, K, N, k0 + h * 8 + b_row, block_col + b_col, vec_b);
        }
    };
    auto stage_tiles = [&](int stage) {
        float* const as = As + stage * kBK * kAStride;
        float* const bs = Bs + stage * kBK * kBN;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int k = h * 8 + a_col;
            as[(k + 0) * kAStride + a_row] = a_next[h].x;  // transposed: As[k][m] = A(m, k)
            as[(k + 1) * kAStride + a_row] = a_next[h].y;
            as[(k + 2) * kAStride + a_row] = a_next[h].z;
            as[(k + 3) * kAStride + a_row] = a_next[h].w;
            *reinterpret_cast<float4*>(&bs[(h * 8 + b_row) * kBN + b_col]) = b_next[h];
        }
    };

    float acc[kTM][kTN] = {};
    load_tiles(0);
    stage_tiles(0);
    __syncthreads();

    const int tiles = (K + kBK - 1) / kBK;
    for (int t = 0; t < tiles; ++t) {
        const int stage = t % 2;
        const bool more = t + 1 < tiles;
        if (more) load_tiles((t + 1) * kBK);  // in flight while the FMAs below run
        const float* const as = As + stage * kBK * kAStride;
        const float* const bs = Bs + stage * kBK * kBN;
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            const float4 a_lo = *reinterpret_cast<const float4*>(&as[k * kAStride + ty * 4]);
            const float4 a_hi = *reinterpret_cast<const float4*>(&as[k * kAStride + kBM / 2 + ty * 4]);
            const float4 b_lo = *reinterpret_cast<const float4*>(&bs[k * kBN + tx * 4]);
            const float4 b_hi = *reinterpret_cast<const float4*>(&bs[k * kBN + kBN / 2 + tx * 4]);
            const float a[kTM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
            const float b[kTN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The other stage was last read before the barrier that ended the previous iteration.
        if (more) stage_tiles(stage ^ 1);
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
    tiled_matmul_kernel<<<grid, kThreads, kSharedBytes>>>(A, B, C, M, N, K);
// END STUDENT REGION
