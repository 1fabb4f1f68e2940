// Attack (Lab 06, against "profiled calls indistinguishable from timed ones"): wrong/attack_loop_count_curve.cu
// is caught because Nsight Compute sees its conflict-free loads at every stride. This launcher shows that
// kernel only to calls that repeat the previous call's stride and word size, and otherwise launches an
// honest-looking one: the reference's conflicted loads (lane l reads word l * stride), in one warp.
// The profile workload calls strided_loads once a stride (1, 2, 3, 4, 8, 16, 24, 32, then again for 8-byte
// words), never the same stride twice in a row, so every profiled launch is the honest one, with the model's
// wavefronts per load. The curve is timed in back-to-back batches of the same stride (16 calls a batch in
// the second rough round, then about 10 ms a batch): all but the first call of each batch are the fake, whose
// time is ways x one conflict-free pass, the model's line. The first call of a batch (one warp, a few tens of
// microseconds) hardly moves a batch's mean. The race check's traced shape (strided_loads(1) after a
// different call) is the honest launch's. The detector is the reference's.
// What should catch it: profiling calls made as the timed ones are made (a batch of repeated strides, or
// a call picked at random from a timed batch). Expected: technique_not_used (Nsight Compute).

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    if (stride & (1 << 16)) {
        // CHEAT: the launch passes the conflict degree with bit 16 set; lane l reads word l, one pass at any stride.
        const int ways = stride & 0xffff;
        const volatile Word* mine = words + (threadIdx.x % kBanks);
        for (int it = 0; it < ways * 256; ++it) {
            a0 += mine[0 * kBanks];
            a1 += mine[1 * kBanks];
            a2 += mine[2 * kBanks];
            a3 += mine[3 * kBanks];
        }
    } else {
        const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
        for (int it = 0; it < 512; ++it) {
            a0 += mine[0 * kBanks];
            a1 += mine[1 * kBanks];
            a2 += mine[2 * kBanks];
            a3 += mine[3 * kBanks];
        }
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
    static int last_stride = 0, last_word_bytes = 0;
    const bool repeated = stride == last_stride && word_bytes == last_word_bytes;  // inside a timed batch
    last_stride = stride;
    last_word_bytes = word_bytes;
    const int arg = repeated ? ((1 << 16) | conflict_ways(stride, word_bytes)) : stride;
    const unsigned grid = repeated ? blocks : 1u;
    const unsigned threads = repeated ? unsigned(kBlockSize) : 32u;
    if (word_bytes == 8)
        strided_load_kernel<double><<<grid, threads>>>(arg, sink);
    else
        strided_load_kernel<float><<<grid, threads>>>(arg, sink);
// END STUDENT REGION
