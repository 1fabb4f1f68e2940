// Known-wrong Lab 06: the kernel was written for floats and never made generic: its shared array, its
// pointer and its sums are float whatever Word is, so strided_load_kernel<double> loads 4-byte words
// and the 8-byte curve is the 4-byte curve. Stride 32 measures about 28x, where a half-warp of 8-byte
// words can conflict only 16 ways; its smaller headline, min(T(16), T(32)) / T(1) about 14x, cleared
// the old lower bound. What catches it now: the curve check's ceiling, (1 + 15%) x the model's ways at
// every stride (n passes cost at most n times one), which stride 32 of 8-byte words exceeds (16 ways,
// ceiling 18.4x). Expected: wrong_result (the 8-byte curve check only).
//
// Region-overlay form: only the kernel region; the model, the launch and the detector are the
// reference solution's.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;
    constexpr int kIterations = 512;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ float words[kWords];  // BUG: float, whatever Word is
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<float>(i % 8);
    __syncthreads();

    const volatile float* mine = words + (threadIdx.x % kBanks) * stride;  // BUG: 4-byte loads for doubles too
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < kIterations; ++it) {
        a0 += mine[0 * kBanks];
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const float total = (a0 + a1) + (a2 + a3);
    if (total < 0.0f) *sink = total;
// END STUDENT REGION
