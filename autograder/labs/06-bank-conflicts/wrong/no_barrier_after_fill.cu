// Known-wrong Lab 06: the kernel fills its shared array and starts loading from it without a
// __syncthreads() in between. A thread reads words that other warps of its block are still writing:
// a read-after-write race. The timings hardly change (the curve and the detector still pass), so
// only the memory and race check sees it; racecheck names the hazard. Expected: race_condition.
//
// Region-overlay form: only the kernel region, the reference's without its barrier. The launch, the
// model and the detector are the reference solution's. Under racecheck the kernel runs in two blocks of
// the shape its launcher used (the sanitizer workload), so this variant also shows that the few blocks
// still catch a race.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kIterations = 512;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    // BUG: no __syncthreads() here; the loads below may run before other warps have filled their words

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
