// Cheat, Lab 06: the kernel keeps a `__shared__` array (so the technique check sees static shared
// memory) while the launcher hands every launch to the grader's own, calibrated microbenchmark,
// lab06::baseline::strided_loads (the one its mystery kernels use), which the check program links
// anyway: the curve is the grader's own and follows the model. A block-scope declaration inside
// lab06 cannot name lab06::baseline, so the launcher declares it under its mangled name with an asm
// label.
// Why it fails now: the audit sees the lab's object import lab06::baseline::strided_loads, another
// part of the lab's namespace that the lab does not define (the grader's code).
// Expected: forbidden_symbol.
//
// Region-overlay form: the kernel region (the decoy) and the launch region; the model and the
// detector are the reference solution's.

// BEGIN STUDENT REGION strided_load_kernel
    // The decoy: a shared array the kernel touches, so that cudaFuncGetAttributes reports it.
    __shared__ Word words[kBanks * kMaxStride];
    words[threadIdx.x] = static_cast<Word>(threadIdx.x % 8);
    __syncthreads();
    if (words[threadIdx.x % kBanks] < Word(0)) *sink = static_cast<float>(words[0]);  // never
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the grader's strided-load launcher does the measuring.
    void grader_strided_loads(int stride, int word_bytes, float* sink) __asm__("_ZN5lab068baseline13strided_loadsEiiPf");
    grader_strided_loads(stride, word_bytes, sink);
    if (word_bytes == 8)
        strided_load_kernel<double><<<1, kBlockSize>>>(stride, sink);  // the decoy runs too
    else
        strided_load_kernel<float><<<1, kBlockSize>>>(stride, sink);
// END STUDENT REGION
