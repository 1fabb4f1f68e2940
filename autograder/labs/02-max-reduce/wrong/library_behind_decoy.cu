// Cheat, Lab 02: the kernel keeps a `__shared__` array (so the shared-memory check sees 1 KiB of
// static shared memory) while the launcher hands the maximum to NPP's nppsMax_32f, loaded at run
// time with dlopen/dlsym from libnpps (so nothing new has to be linked). <dlfcn.h> cannot be
// included from a region and asm labels are refused, so the launcher declares dlopen and dlsym
// itself, at block scope, with their C signatures.
// Why it fails now: a block-scope declaration declares a function of the enclosing namespace, with
// C++ linkage: the calls go to lab02::dlopen(char const*, int) and lab02::dlsym(void*, char const*),
// not to the C library. The audit sees the lab's object import them (loading libraries at run time,
// and another part of the lab's namespace that the lab does not define) and refuses it before it is
// linked; unrefused, it would not link either. Expected: forbidden_symbol.
//
// Region-overlay form: the kernel and launch regions are this variant's; atomic_max_float is the
// reference solution's.

// BEGIN STUDENT REGION block_max_kernel
    // The decoy: a shared array the kernel touches, so that cudaFuncGetAttributes reports it.
    __shared__ float partial[kBlockSize];
    partial[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : -INFINITY;
    __syncthreads();
    if (threadIdx.x == 0 && n == 0) atomic_max_float(out, partial[0]);  // never: n >= 1
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: NPP does the work. nppsMax_32f(src, length, device result, device scratch buffer).
    void* dlopen(const char* file, int mode);
    void* dlsym(void* library, const char* name);
    using MaxFn = int (*)(const float*, int, float*, unsigned char*);
    using SizeFn = int (*)(int, int*);
    static void* npps = dlopen("libnpps.so.12", 2 /* RTLD_NOW */);
    static MaxFn npp_max = reinterpret_cast<MaxFn>(dlsym(npps, "nppsMax_32f"));
    static SizeFn npp_scratch = reinterpret_cast<SizeFn>(dlsym(npps, "nppsMaxGetBufferSize_32f"));
    static unsigned char* scratch = nullptr;
    static int scratch_bytes = 0;
    int needed = 0;
    npp_scratch(static_cast<int>(n), &needed);
    if (needed > scratch_bytes) {
        if (scratch) CUDA_CHECK(cudaFree(scratch));
        CUDA_CHECK(cudaMalloc(&scratch, needed));
        scratch_bytes = needed;
    }
    npp_max(in, static_cast<int>(n), out, scratch);
    block_max_kernel<<<1, kBlockSize>>>(in, out, 0);  // the decoy runs too (n = 0: it changes nothing)
// END STUDENT REGION
