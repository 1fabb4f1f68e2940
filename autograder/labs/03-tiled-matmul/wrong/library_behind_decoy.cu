// Cheat, Lab 03: the kernel keeps 16 x 16 shared tiles (so the shared-memory check sees 2 KiB of
// static shared memory) while the launcher hands the product to cuBLAS, which the check program links
// anyway for its own peer: cublasCreate_v2, cublasSetMathMode (pedantic FP32, so that the TF32 check
// cannot tell) and cublasSgemm_v2 on the transposed problem (row-major C = A.B is column-major
// C^T = B^T.A^T), declared at block scope with asm labels since no cuBLAS header may be included.
// Why it fails now: the audit sees the lab's object import cublasCreate_v2, cublasSetMathMode and
// cublasSgemm_v2 (a device-wide library call) and refuses it. Expected: forbidden_symbol.
//
// Region-overlay form: the kernel region (the decoy) and the launch region; the configuration is
// the reference solution's.

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
    // CHEAT: cuBLAS does the product.
    int create_handle(void** handle) __asm__("cublasCreate_v2");
    int set_math_mode(void* handle, int mode) __asm__("cublasSetMathMode");
    int sgemm(void* handle, int transa, int transb, int m, int n, int k, const float* alpha, const float* a, int lda,
              const float* b, int ldb, const float* beta, float* c, int ldc) __asm__("cublasSgemm_v2");
    static void* handle = nullptr;
    if (!handle) {
        create_handle(&handle);
        set_math_mode(handle, 2);  // CUBLAS_PEDANTIC_MATH: plain FP32, no TF32
    }
    const float one = 1.0f, zero = 0.0f;
    sgemm(handle, 0, 0, N, M, K, &one, B, N, A, K, &zero, C, N);  // CUBLAS_OP_N twice: C^T = B^T A^T
    tiled_matmul_kernel<<<1, kThreads>>>(A, B, C, -1, N, K);        // the decoy runs too (M < 0: it writes nothing)
// END STUDENT REGION
