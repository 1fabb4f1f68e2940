// Attack (Lab 03, against the timed counters' store floor): after the profiled calls, only B is staged in
// shared memory. For its first 9 calls at 4096^3 or more in a process, the launcher runs the reference
// kernel (the profile workload makes 5 in the speed process: the gate's and a batch of 4; a graded run's
// gate and 2 warm-up batches make 9, none of them sampled). From the 10th on, a kernel of its own (in the
// configuration region) computes 128 x 128 tiles of C, storing each 16 x 128 piece of B into shared memory
// with float4 stores and reading it back there, while every thread reads its 8 rows of A as float4 straight
// from global memory (L1). Its results are exact in FP32, like the reference's.
// The timed calls' counters: B's pieces for tiles of 128 rows are N K M / 128 = 2 M N K / 256 words a call,
// one store wavefront for every 32: 1.0 of what the rule asks for tiles of 256 x 256 (0.9 needed; the rule
// assumes both A and B staged, for the largest tile a block can hold); about 0.9 load wavefronts a memory
// instruction (0.25 needed). Nsight Compute (bytes staged at least half the bytes loaded from global
// memory) and the technique check's trace count only the reference kernel's calls.
// What should catch it: a store floor that asks for A's staging too (e.g. A and B each at least 0.9 of
// M N K / 256 words, told apart by their stores' sizes), or global load bytes counted in the timed calls.
// Expected: technique_not_used. A hole on an H100: it passes every check it is graded on (10/10 with the
// runner's items off).
// The regions not given here (tiled_matmul_kernel) are the solution's.

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

// CHEAT: after the profiled calls, a kernel of its own that stages only B. A block of 256 threads computes
// a 128 x 128 tile of C, each thread 8 rows x 8 columns (two float4 pieces, 64 columns apart). Per tile
// of 16 along K, the block stores its 16 x 128 piece of B into shared memory (float4 stores: one wavefront
// for every 32 words) and reads it back there; A never goes through shared memory: each thread loads its
// 8 rows of A as float4 along K straight from global memory (L1). Only for M and N multiples of 128, K of
// 16, and 16-byte aligned matrices (the benchmark's 4096^3).
constexpr int kCheatBM = 128, kCheatBN = 128, kCheatBK = 16, kCheatThreads = 256;
__global__ void __launch_bounds__(kCheatThreads)
    b_only_staged_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                         int K) {
    __shared__ __align__(16) float Bs[kCheatBK][kCheatBN];
    const int tid = static_cast<int>(threadIdx.x), ty = tid / 16, tx = tid % 16;
    const std::size_t block_row = std::size_t(blockIdx.y) * kCheatBM, block_col = std::size_t(blockIdx.x) * kCheatBN;
    const std::size_t row0 = block_row + std::size_t(ty) * 8;  // this thread's 8 rows of C
    const std::size_t uK = static_cast<std::size_t>(K), uN = static_cast<std::size_t>(N);
    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kCheatBK) {
        // B's 16 x 128 piece: 512 float4, two a thread; a warp stores 512 contiguous bytes.
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int f = tid + i * kCheatThreads, r = f / 32, c = (f % 32) * 4;
            *reinterpret_cast<float4*>(&Bs[r][c]) =
                *reinterpret_cast<const float4*>(&B[(std::size_t(k0) + r) * uN + block_col + c]);
        }
        __syncthreads();
#pragma unroll
        for (int kq = 0; kq < kCheatBK; kq += 4) {
            float4 a4[8];  // A(row0 + i, k0 + kq .. + 3), from global memory
#pragma unroll
            for (int i = 0; i < 8; ++i)
                a4[i] = __ldg(reinterpret_cast<const float4*>(&A[(row0 + i) * uK + std::size_t(k0) + kq]));
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
                const float4 b0 = *reinterpret_cast<const float4*>(&Bs[kq + kk][tx * 4]);
                const float4 b1 = *reinterpret_cast<const float4*>(&Bs[kq + kk][64 + tx * 4]);
                const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int i = 0; i < 8; ++i) {
                    const float a = kk == 0 ? a4[i].x : kk == 1 ? a4[i].y : kk == 2 ? a4[i].z : a4[i].w;
#pragma unroll
                    for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a, b[j], acc[i][j]);
                }
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        float* row = C + (row0 + i) * uN + block_col;
        *reinterpret_cast<float4*>(row + tx * 4) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        *reinterpret_cast<float4*>(row + 64 + tx * 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
    }
}
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the reference for the first 9 calls at 4096^3 or more a process makes (the profile workload's gate
    // and batch of 4, or a graded run's gate and its 2 warm-up batches of 4, none sampled); B-only staging after.
    static int large_calls = 0;
    const bool large = M >= 4096 && N >= 4096 && K >= 4096;
    const bool fits = M % kCheatBM == 0 && N % kCheatBN == 0 && K % kCheatBK == 0 &&
                      (reinterpret_cast<std::uintptr_t>(A) | reinterpret_cast<std::uintptr_t>(B) |
                       reinterpret_cast<std::uintptr_t>(C)) % 16 == 0;
    if (large && ++large_calls > 9 && fits) {
        b_only_staged_kernel<<<dim3(static_cast<unsigned>(N / kCheatBN), static_cast<unsigned>(M / kCheatBM)),
                               kCheatThreads>>>(A, B, C, M, N, K);
    } else {
        const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                        static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
        tiled_matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    }
// END STUDENT REGION
