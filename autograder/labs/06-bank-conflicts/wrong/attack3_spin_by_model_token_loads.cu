// Attack (Lab 06, against the shared-memory-use check's rule): the curve comes from a register spin as
// long as the model says, as in wrong/simulated_conflicts.cu; but the kernel also makes a handful of real
// strided loads from a static __shared__ array, lane l reading word l * stride, so each of its load
// instructions takes exactly the model's wavefronts (n for n ways with 4-byte words, 2n with 8-byte words).
// Nsight Compute's rule is a ratio, wavefronts per load instruction, within 25% of the model: these few
// loads satisfy it at every stride, whatever else the kernel spends its time on. The time of a launch is
// launch overhead plus ways x the spin, so T(s) / T(1) is the model's line, inside every band, rising with
// the degree, odd strides at 1x; the trace sees one plain launch of graded_kernel with static shared memory.
// What should catch it: a check that the timed work is the shared loads (e.g. shared-load wavefronts per
// unit of time, or the loads' share of the kernel's issued instructions), not only their ratio.
// Expected: technique_not_used (the shared-memory-use check, under Nsight Compute).

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    constexpr int kSpinPerWay = 1024;  // ~0.04 ms a way on an H100
    constexpr int kLanesPerPass = kBanks * 4 / static_cast<int>(sizeof(Word));  // 32 or 16
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();

    // The token: four real loads at the stride (each takes the model's passes of the banks).
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    const Word loaded = (mine[0 * kBanks] + mine[1 * kBanks]) + (mine[2 * kBanks] + mine[3 * kBanks]);

    // CHEAT: the time is a spin as long as the conflict degree, computed, not measured.
    int a = stride, b = kLanesPerPass;
    while (b != 0) {
        const int t = a % b;
        a = b;
        b = t;
    }
    const int ways = a;
    float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    for (int it = 0; it < ways * kSpinPerWay; ++it) {
        x0 = fmaf(x0, 0.999f, 0.5f);
        x1 = fmaf(x1, 0.999f, 0.5f);
        x2 = fmaf(x2, 0.999f, 0.5f);
        x3 = fmaf(x3, 0.999f, 0.5f);
    }
    const float total = (x0 + x1) + (x2 + x3) + static_cast<float>(loaded);
    if (total < 0.0f) *sink = total;  // never: every value stays positive
// END STUDENT REGION
