// Known-wrong Lab 06: the kernel wraps the lane at the words it thinks fill the banks once, counting
// a double's two banks twice: 32 lanes for floats, but 8 for doubles. Lanes l and l + 8 then read the
// same 8-byte word, served by one broadcast, so every conflicted 8-byte stride shows half its degree
// (stride 2 costs what stride 1 costs, strides 16 and 32 are 8-way, not 16-way), while odd strides and
// the whole 4-byte curve stay right. Its headline, min(T(16), T(32)) / T(1) about 7x, cleared the old
// lower bound of 6x. What catches it now: the band at every stride, whose floor at 2 ways is 1.19x for
// 8-byte words (about 1.0x here, at strides 2, 6, 10, ...). Expected: wrong_result (the 8-byte curve
// check only).
//
// Region-overlay form: only the kernel region; the model, the launch and the detector are the
// reference solution's.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kIterations = 512;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();

    // BUG: 32 / (banks a word) / (banks a word): 32 lanes for floats, 8 for doubles (a pass has 16)
    constexpr int kLanes = kBanks / (sizeof(Word) / 4) / (sizeof(Word) / 4);
    const volatile Word* mine = words + (threadIdx.x % kLanes) * stride;
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
