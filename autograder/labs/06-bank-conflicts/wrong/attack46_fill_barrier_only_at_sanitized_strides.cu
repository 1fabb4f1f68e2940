// Attack (Lab 06, the forty-sixth round): the reference, but the barrier between
// filling the shared words and reading them is kept only at strides 1 to 3: from stride 4 on, warps read
// words other warps have not written yet (a read-after-write race on shared memory, exactly
// wrong/no_barrier_after_fill, which the memory and race check catches).
// Why it passes: racecheck runs the graded kernel only at stride 2 (8-byte words) and stride 3 (4-byte
// words), in 2 blocks of the launcher's shape (autograder/labs/06-bank-conflicts/checks.cpp, sanitizer
// workload, ~772-800; rubric.json "sanitizer"): both take the barrier. What the racing words hold changes
// nothing graded: the timing of the loop is the same whatever the values (the curve, its counters, Nsight
// Compute's wavefronts a load), and a negative garbage sum only stores into sink[0], inside the sink.
// Deserves: race_condition.
// 
// Caught now: the tools also run one stride from 4 to 128 for each word size, drawn from the run's
// seed. Expected: race_condition.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;         // independent loads a thread per iteration
    constexpr int kIterations = 512;  // ~0.08 ms at stride 1 on an H100: far above the launch overhead
    constexpr int kWords = kBanks * (kMaxStride + kLoads);  // largest index read: 31 * kMaxStride + 3 * 32
    __shared__ Word words[kWords];                          // (kWords) 4.5 KiB of floats, 9 KiB of doubles
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    if (stride <= 3) __syncthreads();  // (stride is the same for the whole grid)

    // volatile: every load in the loop must be issued. Without it the compiler sees the same addresses
    // and no stores, loads each word once before the loop, and the loop times only the adds.
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four accumulators: no load waits for another's add
    for (int it = 0; it < kIterations; ++it) {
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

