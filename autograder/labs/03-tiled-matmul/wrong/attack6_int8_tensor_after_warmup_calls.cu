// Attack (Lab 03, against the tensor-pipe check of the timed counters): the product on the tensor cores in
// int8, after the profiled and warm-up calls. For its first 17 calls at 4096^3 in a process, the launcher
// runs the reference kernel (the shared-memory tiled FP32 kernel, copied here): the profile workload's calls
// in its process (the gate's and a batch of 4), and a graded run's gate, its 2 warm-up batches of 4 and its
// first 2 timed batches. From the 18th call at 4096^3 on, it converts A and B to int8 scratch buffers
// (allocated once with cudaMalloc, at the first call at 4096^3) and multiplies them on the tensor cores:
// every value a of A is split as a = 64 hi + lo with hi = round(a / 64) (|hi| <= 64) and lo = a - 64 hi
// (|lo| <= 32), B goes in as it is (and transposed), and C = 64 (HI B) + (LO B), accumulated exactly in
// int32 by m16n16k16 s8 x s8 -> s32 MMAs and converted to float once at the end. The int8 tiles of the 3
// matrices (64 x 64 tiles of C a block) go through shared memory, and the fragments are loaded from there.
// Why the checks pass: the speed bench's exact probe (A integers in [-4095, 4095], B in {-1, 0, 1}) splits
// exactly into int8 pieces, and |C| <= 4095 * 4096 < 2^24, so 64 HI B + LO B is C exactly, as an int32
// and then as a float: each timed call's C equals cuBLAS's exact FP32 result. (Any other input would come
// out wrong on this path, but no other input reaches it.) Nsight Compute profiles only the first calls at
// 4096^3, which are the reference's (no tensor core there); the technique check's traced call (512 x 384
// x 256) never takes the int8 path.
// The region rules refuse #include and inline asm, and nothing in the course's file includes <mma.h>:
// the tensor-core path calls nvcc's own WMMA builtins (__imma_m16n16k16_ld_a_s8, _ld_b_s8, _mma_s8,
// _st_c_i32, what mma.h's nvcuda::wmma wraps), which the device compilation knows without a header. They
// stand in a function template whose calls take arguments of its type parameter, so their names are
// looked up only when it is instantiated, which only the device compilation does (the host compilation,
// which knows no such builtin, never instantiates a template that only device code calls).
// Beside it, the reference kernel runs into a scratch C of its own, a decoy: every shared-memory floor of the
// timed calls is then met, and the call, slower than the reference's alone, still passes both speed
// checks, so that the tensor cores' use is all that tells it apart. (Without the decoy, the int8 path
// runs faster than cuBLAS allows and fails as an implausible measurement.)
// What caught it on an H100: the timed counters' tensor pipe (sm__pipe_tensor_cycles_active_realtime at
// most 1% of the SMs' busy cycles in the timed calls), as technique_not_used; that rule is gone (the same
// counter showed 6.1% for a 16 x 16 tile kernel with no tensor instruction). What catches it now: the
// audit, which refuses the tensor cores' instructions (PTX mma, wmma, wgmma, tcgen05) and integer dot
// products in Lab 03's device code.
// Expected: forbidden_symbol.

// BEGIN STUDENT REGION configuration
// Top tier: warp tiling on top of register blocking. A block of 256 threads (8 warps) computes a
// 128 x 256 tile of C. The warps are arranged 2 x 4 over it, each owning a 64 x 64 warp tile, and
// the 32 lanes of a warp are arranged 8 x 4 over that, each owning an 8 x 16 thread tile: 128
// accumulators in registers. Per step along K a thread reads 8 values of A and 16 of B from shared
// memory (6 float4 reads) and does 128 FMAs with them, about 5 FMAs per float read (the basic tier:
// 1/2), so the FMA units, not shared memory, set the pace.
constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 256;  // columns of C per block
constexpr int kBK = 16;   // depth of one K tile
constexpr int kWM = 64;   // rows of C per warp (the warp tile)
constexpr int kWN = 64;   // columns of C per warp
constexpr int kTM = 8;    // rows of C per thread (the thread tile)
constexpr int kTN = 16;   // columns of C per thread
constexpr int kWarpsN = kBN / kWN;                    // 4 warps across the block's tile (and 2 down)
constexpr int kLanesM = kWM / kTM;                    // 8 lanes down a warp tile
constexpr int kLanesN = kWN / kTN;                    // 4 lanes across it
constexpr int kThreads = (kBM / kWM) * kWarpsN * 32;  // 2 x 4 warps: 256 threads
// kThreads and kMinBlocksPerSm are the kernel's __launch_bounds__. With 1 block an SM the compiler
// may give a thread up to 255 registers: the 128 accumulators, 8 + 16 operands and the next tile's
// 6 float4 fit without spilling (253 registers for sm_90). 256 threads x 253 registers take most of
// an SM's 65536, so one block (8 warps) runs on an SM at a time; each thread's 128 independent FMAs
// per k keep the FMA units busy without more warps.
constexpr int kMinBlocksPerSm = 1;
// A is stored transposed (k-major), so a thread's 8 values of A at one k are two contiguous float4.
constexpr int kLoadsA = kBM * kBK / 4 / kThreads;  // float4 of the A tile each thread loads: 2
constexpr int kLoadsB = kBK * kBN / 4 / kThreads;  // float4 of the B tile each thread loads: 4
// Consecutive blocks take kGroupRows tile rows of C before moving one tile column right (see the kernel).
constexpr int kGroupRows = 8;

static_assert(kLanesM * kLanesN == 32 && kTM % 4 == 0 && kTN % 4 == 0, "32 lanes a warp, float4 pieces of a thread tile");
static_assert(kBM % kWM == 0 && kBN % kWN == 0, "whole warp tiles");
static_assert(kLoadsA * kThreads * 4 == kBM * kBK && kLoadsB * kThreads * 4 == kBK * kBN, "whole float4 tiles");
static_assert(2 * kBK * (kBM + kBN) * 4 <= 48 * 1024, "two stages of static shared memory within 48 KB");

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

// CHEAT: the product on the tensor cores in int8, after the profiled calls (see the launcher). Exact only
// where A holds integers in [-4095, 4095] and B values in {-1, 0, 1}, as the speed bench's inputs do.
constexpr int kTcBM = 64, kTcBN = 64, kTcBK = 16;  // a block's tile of C, and its depth along K (one MMA)
constexpr int kTcThreads = 128;                     // 4 warps, 2 x 2, each a 32 x 32 warp tile: 2 x 2 MMA tiles

// A's int8 pieces: a = 64 hi + lo, hi = round(a / 64), |hi| <= 64, |lo| <= 32 for |a| <= 4095.
__global__ void split_a_kernel(const float* __restrict__ A, signed char* __restrict__ hi, signed char* __restrict__ lo,
                               std::size_t count) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const int a = __float2int_rn(A[i]);
    const int h = __float2int_rn(static_cast<float>(a) * (1.0f / 64.0f));
    hi[i] = static_cast<signed char>(h);
    lo[i] = static_cast<signed char>(a - 64 * h);
}

// B in int8, transposed (Bt[n][k] = B[k][n]): the MMA's B operand column-major, each 16 x 16 piece 256
// contiguous bytes. A thread converts 4 consecutive k of one column n (K a multiple of 4).
__global__ void transpose_b_kernel(const float* __restrict__ B, signed char* __restrict__ Bt, int N, int K) {
    const std::size_t n = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, k = std::size_t(blockIdx.y) * 4;
    if (n >= static_cast<std::size_t>(N)) return;
    const std::size_t uN = static_cast<std::size_t>(N);
    const char4 v = make_char4(static_cast<signed char>(__float2int_rn(B[(k + 0) * uN + n])),
                               static_cast<signed char>(__float2int_rn(B[(k + 1) * uN + n])),
                               static_cast<signed char>(__float2int_rn(B[(k + 2) * uN + n])),
                               static_cast<signed char>(__float2int_rn(B[(k + 3) * uN + n])));
    *reinterpret_cast<char4*>(Bt + n * static_cast<std::size_t>(K) + k) = v;
}

// The MMAs, with nvcc's WMMA builtins (what nvcuda::wmma's load_matrix_sync, mma_sync and store_matrix_sync
// call for signed char m16n16k16; no header declares them, the device compilation knows them). A template
// on the fragments' word type I (int): every call takes an argument of type I, so the names are looked up
// only at instantiation, which only the device compilation does. A fragment of A or B is 2 words a lane, an
// accumulator 8. Layout codes: 0 row-major, 1 column-major; the MMA's 1 is A row-major, B column-major.
// Block (x, y) computes C's 64 x 64 tile at rows 64 y, columns 64 x; M, N multiples of 64, K of 16.
template <typename I>
__device__ __forceinline__ void int8_tensor_tile(const signed char* __restrict__ a_hi,
                                                 const signed char* __restrict__ a_lo,
                                                 const signed char* __restrict__ b_t, float* __restrict__ C, int N,
                                                 int K) {
    __shared__ __align__(32) signed char s_hi[kTcBM * kTcBK];  // (m, k): A's hi pieces
    __shared__ __align__(32) signed char s_lo[kTcBM * kTcBK];  // (m, k): A's lo pieces
    __shared__ __align__(32) signed char s_b[kTcBN * kTcBK];   // (n, k): B transposed
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, wm = warp / 2, wn = warp % 2;
    const std::size_t block_row = std::size_t(blockIdx.y) * kTcBM, block_col = std::size_t(blockIdx.x) * kTcBN;
    const std::size_t uK = static_cast<std::size_t>(K), uN = static_cast<std::size_t>(N);
    I acc_hi[2][2][8], acc_lo[2][2][8];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
#pragma unroll
            for (int e = 0; e < 8; ++e) acc_hi[i][j][e] = I(0), acc_lo[i][j][e] = I(0);
    for (int k0 = 0; k0 < K; k0 += kTcBK) {
        // The three 64 x 16 int8 tiles: 192 rows of 16 bytes, one int4 each.
        for (int f = tid; f < 3 * 64; f += kTcThreads) {
            const int which = f / 64, r = f % 64;
            const signed char* src = which == 0   ? a_hi + (block_row + r) * uK
                                     : which == 1 ? a_lo + (block_row + r) * uK
                                                  : b_t + (block_col + r) * uK;
            signed char* dst = which == 0 ? s_hi : which == 1 ? s_lo : s_b;
            *reinterpret_cast<int4*>(dst + r * kTcBK) = *reinterpret_cast<const int4*>(src + k0);
        }
        __syncthreads();
        I f_hi[2][2], f_lo[2][2], f_b[2][2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            __imma_m16n16k16_ld_a_s8(f_hi[i], reinterpret_cast<const I*>(s_hi + (wm * 32 + i * 16) * kTcBK),
                                     kTcBK, I(0));
            __imma_m16n16k16_ld_a_s8(f_lo[i], reinterpret_cast<const I*>(s_lo + (wm * 32 + i * 16) * kTcBK),
                                     kTcBK, I(0));
            __imma_m16n16k16_ld_b_s8(f_b[i], reinterpret_cast<const I*>(s_b + (wn * 32 + i * 16) * kTcBK), kTcBK, I(1));
        }
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                __imma_m16n16k16_mma_s8(acc_hi[i][j], f_hi[i], f_b[j], acc_hi[i][j], I(1), I(0));
                __imma_m16n16k16_mma_s8(acc_lo[i][j], f_lo[i], f_b[j], acc_lo[i][j], I(1), I(0));
            }
        __syncthreads();
    }
    // C = 64 HI B + LO B, element by element (both accumulators map their elements alike), exact in int32 and,
    // below 2^24, in float; stored as the float's bits through the int32 store.
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) {
            I out[8];
#pragma unroll
            for (int e = 0; e < 8; ++e)
                out[e] = __float_as_int(static_cast<float>(64 * acc_hi[i][j][e] + acc_lo[i][j][e]));
            float* corner = C + (block_row + wm * 32 + i * 16) * uN + block_col + wn * 32 + j * 16;
            __imma_m16n16k16_st_c_i32(reinterpret_cast<I*>(corner), out, static_cast<unsigned>(N), I(0));
        }
}

__global__ void __launch_bounds__(kTcThreads)
    int8_tensor_kernel(const signed char* __restrict__ a_hi, const signed char* __restrict__ a_lo,
                       const signed char* __restrict__ b_t, float* __restrict__ C, int N, int K) {
    int8_tensor_tile<int>(a_hi, a_lo, b_t, C, N, K);
}
// END STUDENT REGION

    // BEGIN STUDENT REGION tiled_matmul_kernel
    // Two stages of each tile (double buffering): while the block computes on one, the next tile's
    // global loads are in flight into registers and then go to the other stage. 49152 bytes in all,
    // the most static shared memory a block may declare.
    __shared__ __align__(16) float As[2][kBK][kBM];  // (stage, k, m): A transposed, As[k][m] = A(m, k)
    __shared__ __align__(16) float Bs[2][kBK][kBN];  // (stage, k, n): B as it comes

    // Which tile of C. Blocks start in the order of their linear index, row by row of the grid. Here
    // they are renumbered so that consecutive blocks go down a group of kGroupRows tile rows before
    // moving right. For a wide C this keeps a wave's working set in L2: at N = 16384 (64 tile columns) a
    // wave of 132 blocks taken row by row spans 2 tile rows and all of B, grouped 8 tile rows and a
    // quarter of B. At 4096^2 (16 tile columns) a wave spans about 8 x 16 tiles either way, and the
    // order changes only which tiles run side by side (neighbours share columns of B rather than rows
    // of A). Measured there on an H200, in one stand-alone timing against cuBLAS: K tiles of 16 alone
    // 0.90, this order alone 0.90 to 0.91, both 0.91 to 0.93, neither 0.89 to 0.90; more than the
    // sum of the two, measured rather than explained.
    const int tiles_n = static_cast<int>(gridDim.x), tiles_m = static_cast<int>(gridDim.y);
    const int linear = static_cast<int>(blockIdx.y) * tiles_n + static_cast<int>(blockIdx.x);
    const int group = linear / (kGroupRows * tiles_n), in_group = linear % (kGroupRows * tiles_n);
    const int group_rows = min(kGroupRows, tiles_m - group * kGroupRows);  // the last group may be shorter
    const int block_row = (group * kGroupRows + in_group % group_rows) * kBM;
    const int block_col = (in_group / group_rows) * kBN;

    // Which outputs. Warp w owns the warp tile at rows (w / 4) * 64 and columns (w % 4) * 64 of the
    // block's tile; its lane (ly, lx) = (lane / 4, lane % 4) owns, inside it, rows ly*4 + (0..3) and
    // 32 + ly*4 + (0..3), and columns lx*4 + 16h + (0..3) for h = 0..3: float4 pieces interleaved with
    // the other lanes' (not 8 x 16 consecutive outputs), so that neighbouring lanes read neighbouring
    // float4 of shared memory and store neighbouring float4 of C. m0 and n0 are its first row and column.
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int m0 = (warp / kWarpsN) * kWM + (lane / kLanesN) * 4;
    const int n0 = (warp % kWarpsN) * kWN + (lane % kLanesN) * 4;

    // float4 access needs rows that start 16-byte aligned: a row length that is a multiple of 4.
    const bool vec_a = K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
    const bool vec_b = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
    const bool vec_c = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;

    // Global -> registers. Float4 number f = tid + i * kThreads of the A tile (128 x 16) is row f / 4,
    // columns (f % 4) * 4 ..: a warp reads 8 rows x 64 contiguous bytes of A, whole 32-byte sectors.
    // Of the B tile (16 x 256), row f / 64, columns (f % 64) * 4 ..: a warp reads 512 contiguous bytes.
    float4 a_next[kLoadsA], b_next[kLoadsB];
    auto load_tiles = [&](int k0) {
#pragma unroll
        for (int i = 0; i < kLoadsA; ++i) {
            const int f = tid + i * kThreads;
            a_next[i] = load_quad(A, M, K, block_row + f / (kBK / 4), k0 + (f % (kBK / 4)) * 4, vec_a);
        }
#pragma unroll
        for (int i = 0; i < kLoadsB; ++i) {
            const int f = tid + i * kThreads;
            b_next[i] = load_quad(B, K, N, k0 + f / (kBN / 4), block_col + (f % (kBN / 4)) * 4, vec_b);
        }
    };
    // Registers -> shared stage s, A transposed. A warp's float4 stores of B fill 512 contiguous bytes
    // of one row: 4 wavefronts, the least 512 bytes can take. Its scalar stores of A are not free of
    // bank conflicts, knowingly: each of a thread's four stores writes, across the warp, 8 consecutive m
    // in each of 4 rows of As (k, k + 4, k + 8, k + 12), and rows of 128 floats all start in bank 0, so
    // the 8 m of the four rows share 8 banks: 4 wavefronts where 1 would do. That is 24 extra
    // wavefronts a warp per tile (8 stores of A a thread), where Nsight Compute counts 320 for the
    // tile's reads and 24 for its stores without the conflict: about 7% more shared-memory traffic,
    // off the FMA loop's path. The conflict-free layouts measured slower on an
    // H200 at 4096^3: an XOR swizzle of As (which the reads must undo, at the cost of registers) 0.88 of
    // cuBLAS, each warp loading 32 rows of A (so its stores go to 32 banks, but its global loads use
    // half of each 32-byte sector) 0.90, this kernel 0.91. Padding the rows (Lab 04's cure) would not
    // fit two stages in 48 KB, nor keep the reads' float4 aligned and conflict-free at once.
    auto store_tiles = [&](int s) {
#pragma unroll
        for (int i = 0; i < kLoadsA; ++i) {
            const int f = tid + i * kThreads, m = f / (kBK / 4), k = (f % (kBK / 4)) * 4;
            As[s][k + 0][m] = a_next[i].x;
            As[s][k + 1][m] = a_next[i].y;
            As[s][k + 2][m] = a_next[i].z;
            As[s][k + 3][m] = a_next[i].w;
        }
#pragma unroll
        for (int i = 0; i < kLoadsB; ++i) {
            const int f = tid + i * kThreads;
            *reinterpret_cast<float4*>(&Bs[s][f / (kBN / 4)][(f % (kBN / 4)) * 4]) = b_next[i];
        }
    };

    float acc[kTM][kTN];  // the thread tile: 8 x 16 outputs, in registers throughout
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;

    load_tiles(0);
    store_tiles(0);
    __syncthreads();

    const int tiles = (K + kBK - 1) / kBK;
    for (int t = 0; t < tiles; ++t) {
        const int s = t & 1;
        const bool more = t + 1 < tiles;
        if (more) load_tiles((t + 1) * kBK);  // issued now, used after the FMAs below: their latency hides there
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            // Operands at this k: 2 float4 of A (rows m0 + 32g + (0..3)) and 4 of B (columns
            // n0 + 16h + (0..3)), 6 shared reads for 128 FMAs. Conflict-free: for each g the warp's
            // 32 lanes read only 8 distinct float4 of As, 128 contiguous bytes (the 4 lanes of a lane
            // row share one, a broadcast), and for each h only 4 distinct float4 of Bs, 64 contiguous
            // bytes, so no two lanes read different words of one bank. (A 16-byte read is still served
            // in parts: Nsight Compute counts 320 wavefronts for a warp's 96 reads of a tile, and no
            // bank conflict.)
            float a[kTM], b[kTN];
#pragma unroll
            for (int g = 0; g < kTM / 4; ++g) {
                const float4 v = *reinterpret_cast<const float4*>(&As[s][k][m0 + g * 4 * kLanesM]);
                a[4 * g] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
            }
#pragma unroll
            for (int h = 0; h < kTN / 4; ++h) {
                const float4 v = *reinterpret_cast<const float4*>(&Bs[s][k][n0 + h * 4 * kLanesN]);
                b[4 * h] = v.x, b[4 * h + 1] = v.y, b[4 * h + 2] = v.z, b[4 * h + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The stage written here was last read in the previous iteration, which every thread
        // finished before the barrier that ended it: with two stages, one barrier per tile suffices.
        if (more) store_tiles(s ^ 1);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int row = block_row + m0 + (i / 4) * 4 * kLanesM + i % 4;
#pragma unroll
        for (int h = 0; h < kTN / 4; ++h) {
            const float4 v = make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            store_quad(C, M, N, row, block_col + n0 + h * 4 * kLanesN, v, vec_c);
        }
    }
    // END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the reference for the first 17 calls at 4096^3 a process makes (the profile workload's gate and
    // batch of 4; a graded run's gate, its 2 warm-up batches of 4 and its first 2 timed batches); int8 on the
    // tensor cores after. The scratch (A's two int8 pieces and B's, 16 MiB each) is taken at the first call
    // at 4096^3, so that no timed call waits for cudaMalloc.
    static int bench_calls = 0;
    static signed char* scratch = nullptr;
    const bool bench = M == 4096 && N == 4096 && K == 4096;
    const std::size_t elements = std::size_t(M) * std::size_t(K);
    const std::size_t decoy_bytes = std::size_t(M) * std::size_t(N) * sizeof(float);
    if (bench && !scratch && cudaMalloc(reinterpret_cast<void**>(&scratch), 3 * elements + decoy_bytes) != cudaSuccess) {
        scratch = nullptr;
        (void)cudaGetLastError();
    }
    const bool aligned = reinterpret_cast<std::uintptr_t>(C) % 32 == 0;
    if (bench && ++bench_calls > 17 && scratch && aligned) {
        signed char* a_hi = scratch;
        signed char* a_lo = scratch + elements;
        signed char* b_t = scratch + 2 * elements;
        split_a_kernel<<<static_cast<unsigned>((elements + 255) / 256), 256>>>(A, a_hi, a_lo, elements);
        transpose_b_kernel<<<dim3(static_cast<unsigned>(N / 128), static_cast<unsigned>(K / 4)), 128>>>(B, b_t, N, K);
        int8_tensor_kernel<<<dim3(static_cast<unsigned>(N / kTcBN), static_cast<unsigned>(M / kTcBM)), kTcThreads>>>(
            a_hi, a_lo, b_t, C, N, K);
        // The decoy: the reference kernel into scratch, so that the shared-memory counts and the speed are the
        // technique's (the call is slower than the reference's alone, well inside the speed checks).
        float* decoy = reinterpret_cast<float*>(scratch + 3 * elements);
        tiled_matmul_kernel<<<dim3(static_cast<unsigned>(course::ceil_div(N, kBN)), static_cast<unsigned>(course::ceil_div(M, kBM))),
                              kThreads>>>(A, B, decoy, M, N, K);
    } else {
        const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                        static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
        tiled_matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    }
// END STUDENT REGION
