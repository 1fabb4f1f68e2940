// Known-wrong Lab 06 (a cheat that fakes the curve inside the band): like wrong/simulated_conflicts.cu, the
// "microbenchmark" measures no bank conflict; but where that one spun on registers (and declared no shared
// memory, so the technique check caught it), this kernel does load from a static __shared__ array, always
// conflict-free (lane l reads word l + 32 k), and simply loops conflict_ways(stride, word_bytes) times as
// long. Its time is then launch overhead plus ways x one pass: slowdowns of about 1, 2, 4, ... 32 (16 for
// 8-byte words), inside every band (0.85x + ... up to 1.15 x ways), rising with the degree, odd strides at 1x.
// The technique check only asks for static shared memory and a plain launch of the graded kernel, and the
// curve checks only judge the times. The shared-memory-use check under Nsight Compute counts its load
// wavefronts: one a load (two for 8-byte words) at every stride, where the model asks n (2n) at n ways.
// Expected: technique_not_used (the shared-memory-use check; skipped where ncu cannot read the counters).

// BEGIN STUDENT REGION strided_load_kernel
    // BUG (cheat): `stride` carries the conflict degree (the launch passes it); the loads never conflict.
    const int ways = stride;
    constexpr int kLoads = 4;
    constexpr int kIterationsAWay = 256;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();

    const volatile Word* mine = words + (threadIdx.x % kBanks);  // lane l reads word l: one pass, any stride
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < ways * kIterationsAWay; ++it) {
        a0 += mine[0 * kBanks];
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    const int ways = conflict_ways(stride, word_bytes);  // BUG (cheat): the model, not the hardware
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(ways, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(ways, sink);
// END STUDENT REGION
