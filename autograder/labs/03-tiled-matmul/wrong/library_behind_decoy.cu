// Cheat, Lab 03: the kernel keeps 16 x 16 shared tiles (so the shared-memory check sees 2 KiB of
// static shared memory) while the launcher hands the product to cuBLAS through the grader's own peer,
// lab03::baseline::CublasSgemm (pedantic FP32, so the TF32 check cannot tell), which the check
// program links anyway. No cuBLAS header may be included and asm labels are refused, but the
// configuration region is at namespace scope inside namespace lab03: it declares
// `namespace baseline { class CublasSgemm { ... }; }` exactly as autograder/labs/03-tiled-matmul/
// baselines.cuh does (declarations only, so no clash at link time), and the launcher keeps one
// function-static instance and calls it.
// Why it fails now: the audit sees the lab's object import lab03::baseline::CublasSgemm's
// constructor, destructor and operator(): another part of the lab's namespace that the lab does not
// define (the grader's code). Expected: forbidden_symbol.
//
// Region-overlay form: all three regions are this variant's (the configuration: the basic tier's
// constants plus the declaration).

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: the grader's cuBLAS peer, declared as in its baselines.cuh (the check program defines it).
namespace baseline {
class CublasSgemm {
public:
    CublasSgemm();
    ~CublasSgemm();
    CublasSgemm(const CublasSgemm&) = delete;
    CublasSgemm& operator=(const CublasSgemm&) = delete;
    void operator()(const float* A, const float* B, float* C, int M, int N, int K);

private:
    void* handle_ = nullptr;
};
}  // namespace baseline
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    // The decoy: shared tiles the kernel touches, so that cudaFuncGetAttributes reports them.
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    As[threadIdx.y % 16][threadIdx.x % 16] = M > 0 ? A[0] : 0.0f;
    Bs[threadIdx.y % 16][threadIdx.x % 16] = N > 0 ? B[0] : 0.0f;
    __syncthreads();
    if (M < 0) C[0] = As[0][0] + Bs[0][0];  // never: M >= 1
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: cuBLAS does the product, through the grader's own wrapper.
    static baseline::CublasSgemm sgemm;
    sgemm(A, B, C, M, N, K);
    tiled_matmul_kernel<<<1, kThreads>>>(A, B, C, -1, N, K);  // the decoy runs too (M < 0: it writes nothing)
// END STUDENT REGION
