// Known-wrong Lab 03 (a measurement cheat): the reference solution, except that at the benchmark size
// it first rounds A to TF32 (as tensor cores would), keeping FP32 everywhere else. At 4096^3 TF32's
// error stays under a random-float rounding bound; the speed checks use integer matrices whose product
// FP32 computes exactly and TF32 cannot (A's values need 12 significant bits). Expected: wrong_result.
//
// The configuration region is the reference solution's plus the rounding kernel.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: tiled_matmul_kernel)

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

// BUG (cheat): TF32 rounding of A, used only when the problem is large.
__global__ void round_to_tf32(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        out[i] = __uint_as_float((__float_as_uint(in[i]) + 0x1000u) & 0xFFFFE000u);
}
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const float* a = A;
    if (double(M) * N * K >= 4096.0 * 4096.0 * 4096.0) {
        static float* rounded = nullptr;
        static std::size_t capacity = 0;
        const std::size_t n = std::size_t(M) * K;
        if (n > capacity) {
            if (rounded) CUDA_CHECK(cudaFree(rounded));
            CUDA_CHECK(cudaMalloc(&rounded, n * sizeof(float)));
            capacity = n;
        }
        round_to_tf32<<<1024, 256>>>(A, rounded, n);
        a = rounded;
    }
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                    static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
    tiled_matmul_kernel<<<grid, kThreads>>>(a, B, C, M, N, K);
// END STUDENT REGION
