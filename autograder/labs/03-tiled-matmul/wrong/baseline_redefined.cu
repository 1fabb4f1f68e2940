// Cheat, Lab 03: the smallest test of whether a region can replace the grader's own code, without asm
// or attributes. The configuration region is at namespace scope inside namespace lab03, so it can
// open `namespace baseline` and define lab03::baseline::naive_matmul, the naive kernel the speed
// checks divide by, with the signature of autograder/labs/03-tiled-matmul/baselines.cuh and an empty
// body. If that links, the next step is a baseline that takes as long as the student likes (see
// interposed_grader_symbol.cu, which launches the naive kernel 20 times over).
// Why it fails now: the grader's own code is linked as objects ahead of the lab's, and the audit
// refuses a lab object that defines any name the grader defines: here
// lab03::baseline::naive_matmul(float const*, float const*, float*, int, int, int).
// Expected: forbidden_symbol.
//
// The configuration region is the reference's, plus the empty baseline; the kernel and the launch are
// the reference solution's.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: tiled_matmul_kernel, launch)

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

// CHEAT: the grader's naive baseline, defined here with an empty body.
namespace baseline {
void naive_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;
}
}  // namespace baseline
// END STUDENT REGION

