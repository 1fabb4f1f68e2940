// Cheat, Lab 01: the kernel keeps a `__shared__` array (so the shared-memory check sees
// 1 KiB of static shared memory) but the launcher hands the work to the grader's own CUB peer,
// lab01::baseline::CubSum, which the check program links anyway: as fast as CUB by construction.
// A block-scope declaration inside namespace lab01 cannot name lab01::baseline, so the launcher
// declares the constructor and operator() under their mangled names with asm labels and calls them
// on a static buffer as the object (`this` is the first argument in the x86-64 calling convention).
// Why it fails now: the audit sees the lab's object import lab01::baseline::CubSum::CubSum and
// CubSum::operator(): another part of the lab's namespace that the lab does not define (the
// grader's code). Expected: forbidden_symbol.
//
// Region-overlay form: both regions are this variant's.

// BEGIN STUDENT REGION block_sum_kernel
    // The decoy: a shared array the kernel touches, so that cudaFuncGetAttributes reports it.
    __shared__ float partial[kBlockSize];
    partial[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0 && isnan(partial[0])) *out = partial[0];  // never, but the compiler cannot tell
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: lab01::baseline::CubSum, constructed once for the largest input the grader uses.
    void cub_sum_construct(void* self, std::size_t max_n) __asm__("_ZN5lab018baseline6CubSumC1Em");
    void cub_sum_run(void* self, const float* in, float* out, std::size_t n) __asm__("_ZN5lab018baseline6CubSumclEPKfPfm");
    alignas(16) static unsigned char cub[64];
    static const bool ready = (cub_sum_construct(cub, std::size_t(1) << 28), true);
    (void)ready;
    cub_sum_run(cub, in, out, n);
    block_sum_kernel<<<1, kBlockSize>>>(in, out, 0);  // the decoy runs too (n = 0: it adds nothing)
// END STUDENT REGION
