// Cheat, Lab 08: the kernel keeps a `__shared__` array (so the shared-memory check sees static shared memory)
// while the launcher hands the int scan to NPP's nppsIntegral_32s, loaded at run time with dlopen/dlsym from
// libnpps (so nothing new has to be linked). <dlfcn.h> cannot be included from a region and asm labels are
// refused, so the launcher declares dlopen and dlsym itself, at block scope, with their C signatures.
// Why it fails now: a block-scope declaration declares a function of the enclosing namespace, with C++
// linkage: the calls go to lab08::dlopen(char const*, int) and lab08::dlsym(void*, char const*), not to the
// C library. The audit sees the lab's object import them (loading libraries at run time, and another part of
// the lab's namespace that the lab does not define) and refuses it before it is linked; unrefused, it would
// not link either. Expected: forbidden_symbol.
//
// Region-overlay form: the kernel and launch regions are this variant's; the others are the reference's.

// BEGIN STUDENT REGION scan_tiles_kernel
    // The decoy: a shared array the kernel touches, so that cudaFuncGetAttributes reports it.
    __shared__ T decoy[kBlockSize];
    decoy[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : T(0);
    __syncthreads();
    if (threadIdx.x == 0 && n == 0 && share) out[0] = decoy[0];  // never: n >= 1
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: NPP does the work. nppsIntegral_32s(src, dst, length, device scratch buffer).
    void* dlopen(const char* file, int mode);
    void* dlsym(void* library, const char* name);
    using IntegralFn = int (*)(const int*, int*, int, unsigned char*);
    using SizeFn = int (*)(int, int*);
    static void* npps = dlopen("libnpps.so.13", 2 /* RTLD_NOW */);
    static IntegralFn integral = reinterpret_cast<IntegralFn>(dlsym(npps, "nppsIntegral_32s"));
    static SizeFn scratch_size = reinterpret_cast<SizeFn>(dlsym(npps, "nppsIntegralGetBufferSize_32s"));
    int needed = 0;
    scratch_size(static_cast<int>(n), &needed);
    unsigned char* buffer = static_cast<unsigned char*>(scratch(0, static_cast<std::size_t>(needed) + 1));
    integral(reinterpret_cast<const int*>(in), reinterpret_cast<int*>(out), static_cast<int>(n), buffer);
    scan_tiles_kernel<T><<<1, kBlockSize>>>(in, out, n, nullptr);  // the decoy runs too (it writes nothing)
// END STUDENT REGION
