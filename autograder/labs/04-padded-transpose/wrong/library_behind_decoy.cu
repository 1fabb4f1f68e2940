// Cheat, Lab 04: the kernel keeps a padded `__shared__` tile (so the shared-memory check sees 4224
// bytes of static shared memory) while the launcher hands the transpose to cuBLAS: cublasSgeam with
// op(A) = A^T, beta = 0, computes out = in^T at close to copy bandwidth. cuBLAS is loaded by name:
// cublasCreate_v2 and cublasSgeam are declared at block scope with asm labels (no header).
// Why it fails now: the audit sees the lab's object import cublasCreate_v2 and cublasSgeam (a
// device-wide library call) and refuses it. Expected: forbidden_symbol.
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
    int create_handle(void** handle) __asm__("cublasCreate_v2");
    int geam(void* handle, int transa, int transb, int m, int n, const float* alpha, const float* a, int lda,
             const float* beta, const float* b, int ldb, float* c, int ldc) __asm__("cublasSgeam");
    static void* handle = nullptr;
    if (!handle) create_handle(&handle);
    const float one = 1.0f, zero = 0.0f;
    geam(handle, 1 /* CUBLAS_OP_T */, 0 /* CUBLAS_OP_N */, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
    transpose_tile_kernel<<<1, dim3(kTile, kBlockRows)>>>(in, out, -1, cols);  // the decoy runs too (writes nothing)
// END STUDENT REGION
