// Cheat, Lab 04: the kernel keeps a padded `__shared__` tile (so the shared-memory check sees 4224
// bytes of static shared memory) while the launcher hands the transpose to cuBLAS: cublasSgeam with
// op(A) = A^T, beta = 0, computes out = in^T at close to copy bandwidth. No cuBLAS header may be
// included and asm labels are refused, so the launcher declares cublasCreate_v2 and cublasSgeam
// itself, at block scope, with their C signatures (handles and enums as void* and int).
// Why it fails now: a block-scope declaration declares a function of the enclosing namespace, with
// C++ linkage: the calls go to lab04::cublasCreate_v2(void**) and lab04::cublasSgeam(...), not to
// cuBLAS. The audit sees the lab's object import them (a device-wide library call, and another part
// of the lab's namespace that the lab does not define) and refuses it before it is linked; unrefused,
// it would not link either. Expected: forbidden_symbol.
//
// Region-overlay form: both regions are this variant's.

// BEGIN STUDENT REGION transpose_tile_kernel
    // The decoy: a padded tile the kernel touches, so that cudaFuncGetAttributes reports it.
    __shared__ float tile[kTile][kTile + 1];
    tile[threadIdx.y][threadIdx.x] = rows > 0 ? in[0] : 0.0f;
    __syncthreads();
    if (rows < 0) out[0] = tile[threadIdx.x][threadIdx.y];  // never: rows >= 1
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: cuBLAS does the transpose. Row-major in (rows x cols) is column-major in^T (cols x rows);
    // geam with op = T on it gives the column-major rows x cols matrix in, i.e. row-major out = in^T.
    int cublasCreate_v2(void** handle);
    int cublasSgeam(void* handle, int transa, int transb, int m, int n, const float* alpha, const float* a, int lda,
                    const float* beta, const float* b, int ldb, float* c, int ldc);
    static void* handle = nullptr;
    if (!handle) cublasCreate_v2(&handle);
    const float one = 1.0f, zero = 0.0f;
    cublasSgeam(handle, 1 /* CUBLAS_OP_T */, 0 /* CUBLAS_OP_N */, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
    transpose_tile_kernel<<<1, dim3(kTile, kBlockRows)>>>(in, out, -1, cols);  // the decoy runs too (writes nothing)
// END STUDENT REGION
