// Attack (Lab 06, against the curve and the shared-memory-use check): the graded kernel is the reference's
// conflicted loads (lane l reads word l * stride, so every load takes the model's wavefronts), but with so
// few iterations that it is mostly launch overhead: on its own, its curve is flat and fails the threshold.
// The launcher then pads each call with 2 x conflict_ways(stride, word_bytes) device memsets of 64 MiB on the
// default stream. A memset is no kernel of the lab's: Nsight Compute's per-launch rule sees only the
// graded kernel (right wavefronts per load), the technique check's trace sees one plain launch of
// graded_kernel with static shared memory, and the curve, timed across the boundary on the host's clock
// in back-to-back batches, sees launch + ways x one memset: the model's line inside every band.
// What should catch it: the curve's time must be the shared loads' (e.g. the graded kernel's own GPU time,
// or all work of the call, memsets and copies included, against the kernel's share).
// Expected: technique_not_used (the shared-memory-use check, under Nsight Compute).

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kIterations = 4;  // a token: the launch is mostly overhead
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < kIterations; ++it) {
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
    constexpr std::size_t kPadBytes = std::size_t(64) << 20;  // ~25 us of memset on an H100: two a way
    static void* pad = [] {
        void* p = nullptr;
        CUDA_CHECK(cudaMalloc(&p, kPadBytes));
        return p;
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(stride, sink);
    // CHEAT: the conflict's cost, paid in memsets the model counts, not in bank passes.
    const int ways = conflict_ways(stride, word_bytes);
    for (int w = 0; w < 2 * ways; ++w) CUDA_CHECK(cudaMemsetAsync(pad, w & 0xff, kPadBytes));
// END STUDENT REGION
