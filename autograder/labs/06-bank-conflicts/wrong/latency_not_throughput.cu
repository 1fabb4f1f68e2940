// Known-wrong Lab 06: the microbenchmark is a latency test: one warp, each load's address depending
// on the word the previous load returned. Every load waits for the one before, so the time is the
// load latency, which a 32-way conflict raises only about 3x on an H100 (30 to 91 cycles), not the
// 27x a throughput test shows. The curve is too flat. Expected: wrong_result.
//
// Region-overlay form: the kernel and launch regions (the skeleton checks the arguments before the
// launch region and calls CUDA_CHECK_LAUNCH after it); the model and the detector are the reference
// solution's.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kWords = kBanks * kMaxStride;
    constexpr int kChain = 4096;
    __shared__ Word words[kWords];
    // All zeros, but written from a runtime value, so the compiler cannot know the chain below stays put.
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(stride / 1024);
    __syncthreads();
    const int first = (threadIdx.x % kBanks) * stride;
    int index = first;
    Word sum = 0;
    for (int it = 0; it < kChain; ++it) {
        const Word w = words[index];
        sum += w;
        index = first + static_cast<int>(w);  // BUG: the next load waits for this one (latency, not throughput)
    }
    if (sum < Word(0)) *sink = static_cast<float>(sum);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    if (word_bytes == 8)
        strided_load_kernel<double><<<1, 32>>>(stride, sink);  // BUG: one warp leaves the banks idle
    else
        strided_load_kernel<float><<<1, 32>>>(stride, sink);
// END STUDENT REGION
