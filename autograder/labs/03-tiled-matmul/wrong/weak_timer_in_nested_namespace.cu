// Cheat, Lab 03 (found by probing; it got full marks before a region could no longer hold asm or
// attributes): the grader's interleaved timer, course::time_interleaved (common/timer.cu), replaced
// for the whole check program. The configuration region is at namespace scope inside lab03, where
// `namespace course` would only open lab03::course; so, inside a nested namespace (where the region
// rules of the time looked for no asm label), it declares a function with
// `__attribute__((weak))` and an asm label naming course::time_interleaved's mangled symbol, and
// defines it: a sample table that says contender 0 (the student's launcher) takes 1 us and every
// other (naive kernel, cuBLAS) 1 ms, so every speed ratio reads 1000x. The kernel is the basic tier
// (16 x 16 tiles, correct but too slow), compiled without launch bounds.
// Why it fails now: a region may hold neither __attribute__ nor asm (anywhere), so the submission is
// refused before anything is compiled. (Behind that, the grader's objects are now linked first, so
// their strong course::time_interleaved would win, and the audit refuses any definition of a name the
// grader defines.) Without asm and attributes, plain C++ cannot define a course:: function from inside
// namespace lab03 at all: a qualified definition (`... course::time_interleaved(...) { }`) or an
// explicit specialization there is a compile error, and `namespace course { ... }` defines
// lab03::course::time_interleaved, a different symbol that replaces nothing.
// Expected: refused_region.
//
// Region-overlay form: all three regions are this variant's.

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
// No launch bound, as the original kernel had none: for __launch_bounds__(0, 0) nvcc emits no
// .maxntid / .minnctapersm, so the kernel compiles to the same machine code as the original.
constexpr int kThreads = 0;
constexpr int kMinBlocksPerSm = 0;
// The grader's interleaved timer, course::time_interleaved, replaced by a weak definition of the
// same symbol: its samples say the student's launcher (contender 0) takes 1 us and the others 1 ms.
namespace speed {
struct Samples { double* begin; double* end; double* cap; };                // std::vector<double>
struct Table { Samples* begin; Samples* end; Samples* cap; };               // std::vector<std::vector<double>>
struct Contenders { const char* begin; const char* end; const char* cap; };  // std::vector<std::function<void()>>
struct Options { int warmup; int repetitions; void* flusher; };             // course::BenchOptions
__attribute__((weak)) Table timed(const Contenders& c, const Options& o) __asm__(
    "_ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE");
Table timed(const Contenders& c, const Options& o) {
    const long n = (c.end - c.begin) / 32;  // sizeof(std::function<void()>)
    Table t;
    t.begin = static_cast<Samples*>(::operator new(n * sizeof(Samples)));
    t.end = t.cap = t.begin + n;
    for (long i = 0; i < n; ++i) {
        double* s = static_cast<double*>(::operator new(o.repetitions * sizeof(double)));
        for (int r = 0; r < o.repetitions; ++r) s[r] = i == 0 ? 0.001 : 1.0;
        t.begin[i] = {s, s + o.repetitions, s + o.repetitions};
    }
    return t;
}
}  // namespace speed
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        // BUG: (too slow) each value read from shared memory feeds a single FMA: no register blocking
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
