// Attack (Lab 06, against the timed counters' per-stride rule): a curve of half the conflicts, loaded twice.
// At a stride of n ways (n >= 2) the kernel reads at a smaller stride of n / 2 ways (the stride halved until
// its degree is at most half the model's: 16 -> 8, 32 -> 16 for 4-byte words; 32 -> 8 for 8-byte words,
// where 16 has as many ways as 32), and runs its loop twice as many times. Each load takes n / 2 passes of
// the banks, and there are twice as many: T(s) / T(1) follows the model (n), and strides of the same degree
// stay equal. The timed batches' counters see the shared-memory pipe busy with loads, and n / 2 load
// wavefronts a memory instruction (about 0.85 to 1.0 of that as measured), above their floor of 35% of the
// model's n at every stride. Odd strides are the reference's. The detector is the reference's: it sees the
// model's curve.
// What should catch it: the shared-memory-use check (Nsight Compute): wavefronts a load instruction half
// the model's, outside its 25% tolerance, at strides 2, 4, 8, 16, 24 and 32. Expected: technique_not_used
// (only the Nsight Compute item; the timed rule's floor lets it through).

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;         // independent loads a thread per iteration
    constexpr int kIterations = 512;  // ~0.08 ms at stride 1 on an H100: far above the launch overhead
    constexpr int kWords = kBanks * (kMaxStride + kLoads);  // largest index read: 31 * kMaxStride + 3 * 32
    __shared__ Word words[kWords];                          // (kWords) 4.5 KiB of floats, 9 KiB of doubles
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();

    // volatile: every load in the loop must be issued. Without it the compiler sees the same addresses
    // and no stores, loads each word once before the loop, and the loop times only the adds.
    // CHEAT: a stride of n ways (the model's n: gcd(stride, 32) for 4-byte words, gcd(stride, 16) for 8-byte)
    // is replaced by a smaller stride of at most n / 2 ways, loaded twice as often: the time of n passes a
    // load, from loads that take n / 2.
    constexpr int kCap = sizeof(Word) == 8 ? 16 : kBanks;
    const auto ways = [](int s) { return (s & -s) < kCap ? (s & -s) : kCap; };
    int used = stride, rounds = 1;
    if (ways(stride) >= 2) {
        while (ways(used) > ways(stride) / 2) used /= 2;
        rounds = 2;
    }
    const volatile Word* mine = words + (threadIdx.x % kBanks) * used;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four accumulators: no load waits for another's add
    for (int it = 0; it < kIterations * rounds; ++it) {
        a0 += mine[0 * kBanks];  // k * 32 words further on is the same bank for 4- and 8-byte words
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    // Every word is >= 0, so the sum never is negative; the compiler cannot know that, so it must
    // compute the sum, and with it every load.
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);
// END STUDENT REGION
