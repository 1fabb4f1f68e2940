// Cheat, Lab 06: the kernel keeps a `__shared__` array (so the technique check sees static shared
// memory) but times nothing; the curve comes from elsewhere. The earlier form handed every launch to
// the grader's own calibrated microbenchmark, lab06::baseline::strided_loads, through an asm label;
// a region may no longer hold asm, and a block-scope declaration inside lab06::strided_loads cannot
// name lab06::baseline (`void strided_loads(int, int, float*);` there is the lab's own function). So
// the launcher uses what cuda_runtime_api.h offers: cudaLaunchHostFunc enqueues, on the timed default
// stream, a host callback that spins for a time proportional to the model's conflict_ways(stride,
// word_bytes). The events time the callback, so the measured curve T(s) / T(1) is the model's.
// Why it fails now: the audit sees the lab's object import cudaLaunchHostFunc (a lab launches its
// own kernels on the default stream, nothing else) and refuses the lab before it is linked.
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
    // CHEAT: a host callback on the timed stream, as slow as the model says the stride should be.
    const cudaHostFn_t spin = [](void* ways) {
        const unsigned long rounds = 20000ul * reinterpret_cast<unsigned long>(ways);  // ~0.05 ms a way
        volatile unsigned long counter = 0;
        while (counter < rounds) counter = counter + 1;
    };
    if (word_bytes == 8)
        strided_load_kernel<double><<<1, kBlockSize>>>(stride, sink);  // the decoy
    else
        strided_load_kernel<float><<<1, kBlockSize>>>(stride, sink);
    const unsigned long ways = static_cast<unsigned long>(conflict_ways(stride, word_bytes));
    CUDA_CHECK(cudaLaunchHostFunc(nullptr, spin, reinterpret_cast<void*>(ways)));
// END STUDENT REGION
