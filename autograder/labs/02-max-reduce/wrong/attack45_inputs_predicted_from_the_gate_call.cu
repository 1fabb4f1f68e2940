// Attack (Lab 02, against the benchmark inputs, the forty-fifth round): every benchmark input is filled
// from mix(K + (call + 1) x gamma), mix being SplitMix64's finaliser, which is invertible, and K one 64-bit
// value a run. The gate call's values are exact multiples of 2^-24 and give away 24 bits of mix at known
// points: answered honestly, then a 2^40 search on the GPU recovers K (1.3 s and 0.5 s for two keys, in a
// helper's standalone program on an H200, against the course's own generator). Every later call at 2^28
// finds its call number from two elements and reads the planted maximum where the generator put it,
// reading 1 GiB of its own buffer to stay under the plausibility cap: right answers without reading the
// input. What catches it: each call's seed comes from a keyed pseudo-random function (SipHash-2-4, its
// 128-bit key drawn from the run's seed) whose outputs do not give the key away, so the key it recovers
// from the gate call's values predicts nothing: it reads the wrong places. Expected: wrong_result (not yet
// graded on a GPU).
// The regions not given here are the solution's.

// BEGIN STUDENT REGION block_max_kernel
    // The benchmark's inputs are not unpredictable. Every contents the speed bench writes is
    // BenchInputs::refresh(slot, call) (autograder/support/speed.hpp): seed = seed_for(tag, call) =
    // hash64(K, call) = mix(K + (call + 1) * gamma), where K = base ^ FNV(tag) is one 64-bit value for
    // the whole run (base: the run's seed, hashed with the instructor's secret if there is one), mix is
    // SplitMix64's finaliser, a bijection, and element i is from + (top - from) * (mix(seed + (i + 1) *
    // gamma) >> 40) / 2^24. The gate's input (call -1) has seed = mix(K); with lo = -1 and hi = 1 all of
    // its values are exact multiples of 2^-24, so they give away the top 24 bits of mix() at known
    // points: from (its minimum) gives those of mix(seed), elements 0, 1, 2 those of mix(seed + gamma),
    // ... A search over the 2^40 other bits of mix(seed) (seconds on the GPU, in the untimed gate call)
    // finds seed, hence K, hence every later call's seed. The one planted maximum sits at
    // mix(seed + (0x91a7 + 1) * gamma) % n and is above every other element (Plants{1, 0, 0.25, true}).
    // Modes, from the launcher, in bits 56.. of n (n < 2^56 always):
    //   0 the honest reduction; 1 the minimum of the input (for `from`); 2 the search; 3 a timed call:
    //   find the call's number by the first two elements, copy the planted element to *out, and read
    //   1 GiB of our own buffer (not the input) so that the call takes a reduction's time;
    //   4 reset the state, and keep the address of that buffer (passed as `in`).
    using u64 = unsigned long long;
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];  // (warps of the block)
    static u64 key;                     // K, once found
    static unsigned have_key;           // 1 once key holds
    static unsigned lowest;             // the input's minimum, as an order-preserving integer
    static const float* pad;            // 1 GiB of this process's own, read in a timed call
    constexpr u64 kGamma = 0x9E3779B97F4A7C15ull, kC1 = 0xBF58476D1CE4E5B9ull, kC2 = 0x94D049BB133111EBull;
    constexpr u64 kC1inv = 0x96DE1B173F119089ull, kC2inv = 0x319642B2D24D8EC3ull;  // their inverses mod 2^64
    const auto mix = [](u64 x) {
        x = (x ^ (x >> 30)) * kC1;
        x = (x ^ (x >> 27)) * kC2;
        return x ^ (x >> 31);
    };
    const auto unmix = [](u64 y) {
        y ^= (y >> 31) ^ (y >> 62);
        y *= kC2inv;
        y ^= (y >> 27) ^ (y >> 54);
        y *= kC1inv;
        y ^= (y >> 30) ^ (y >> 60);
        return y;
    };
    const auto order = [](float f) {  // an unsigned that orders like the float
        const unsigned u = __float_as_uint(f);
        return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    };
    const unsigned mode = static_cast<unsigned>(n >> 56);
    n &= (std::size_t(1) << 56) - 1;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;

    if (mode == 4) {
        if (tid == 0) {
            key = 0;
            have_key = 0;
            lowest = 0xFFFFFFFFu;
            pad = in;
        }
        return;
    }
    if (mode == 2) {
        // The search. Each warp stores a token into shared memory (a launch of the lab's must).
        if (lane == 0) warp_max[warp] = 0.0f;
        const unsigned lo = lowest;
        const float from = __uint_as_float((lo & 0x80000000u) ? (lo & 0x7FFFFFFFu) : ~lo);
        const int d_from = __float2int_rn(from * 16777216.0f);  // from = (k0 - 2^24) / 2^24 exactly
        if (have_key || n < 3 || !(from >= -1.0f && from < 0.0f)) return;
        const u64 k0 = static_cast<u64>(d_from + 16777216);
        u64 k[3];
        for (int j = 0; j < 3; ++j) {
            const int d = __float2int_rn(in[j] * 16777216.0f) - d_from;  // k_j = D_j - k0 + 2^24
            if (d < 0 || d >= 16777216) return;
            k[j] = static_cast<u64>(d);
        }
        const volatile unsigned* done = &have_key;
        unsigned polls = 0;
        for (u64 low = tid; low < (u64(1) << 40); low += threads) {
            if ((++polls & 0x3FFFu) == 0 && *done) return;
            const u64 s = unmix((k0 << 40) | low);  // a candidate for the gate's seed
            u64 x = s + kGamma;                      // element 0: only the top 24 bits of mix() matter
            x = (x ^ (x >> 30)) * kC1;
            x = (x ^ (x >> 27)) * kC2;
            if ((x >> 40) != k[0]) continue;
            if ((mix(s + 2 * kGamma) >> 40) != k[1] || (mix(s + 3 * kGamma) >> 40) != k[2]) continue;
            key = unmix(s);  // s = mix(K)
            __threadfence();
            have_key = 1;
            return;
        }
        return;
    }
    if (mode == 1) {
        // The input's minimum (the gate's `from`), combined in shared memory, one atomic a block.
        unsigned m = 0xFFFFFFFFu;
        for (std::size_t i = tid; i < n; i += threads) m = min(m, order(in[i]));
        for (int offset = 16; offset > 0; offset /= 2) m = min(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) warp_max[warp] = __uint_as_float(m);
        __syncthreads();
        if (warp == 0) {
            m = lane < kWarps ? __float_as_uint(warp_max[lane]) : 0xFFFFFFFFu;
            for (int offset = 16; offset > 0; offset /= 2) m = min(m, __shfl_down_sync(0xffffffffu, m, offset));
            if (lane == 0) atomicMin(&lowest, m);
        }
        return;
    }
    if (mode == 3 && have_key) {
        // A timed call. Which call is it? The grader numbers the student's calls from 0 (the gate's
        // input is call -1); the first two elements tell, among 65536 candidates, one a thread.
        if (tid < 65536) {
            const u64 seed = mix(key + (tid + 1) * kGamma);
            const int k0 = static_cast<int>(mix(seed) >> 40);
            const float v0 = static_cast<float>(k0 - 16777216 + static_cast<int>(mix(seed + kGamma) >> 40)) * (1.0f / 16777216.0f);
            const float v1 = static_cast<float>(k0 - 16777216 + static_cast<int>(mix(seed + 2 * kGamma) >> 40)) * (1.0f / 16777216.0f);
            if (__float_as_uint(v0) == __float_as_uint(in[0]) && __float_as_uint(v1) == __float_as_uint(in[1]))
                out[0] = in[mix(seed + (0x91a7ull + 1) * kGamma) % n];  // the planted maximum
        }
        // The call's time: 1 GiB of our own buffer read (as a reduction of the input would read it),
        // and each warp's value through shared memory, one warp loading them back (the lab's counts).
        const float4* p4 = reinterpret_cast<const float4*>(pad);
        const std::size_t n4 = n / 4;
        float junk = 0.0f;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 a = p4[i], b = p4[i + threads], c = p4[i + 2 * threads], d = p4[i + 3 * threads];
            junk += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
                    ((d.x + d.y) + (d.z + d.w));
        }
        for (; i < n4; i += threads) {
            const float4 a = p4[i];
            junk += (a.x + a.y) + (a.z + a.w);
        }
        if (lane == 0) warp_max[warp] = junk;
        __syncthreads();
        if (warp == 0) {
            const float t = lane < kWarps ? warp_max[lane] : 0.0f;
            if (t == -1.0e30f) out[0] = t;  // never: the buffer holds zeros
        }
        return;
    }

    // Mode 0 (and a timed call before any key was found): the reference.
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;
    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            m = max_or_nan(m, max_or_nan(max_or_nan(max4(a), max4(b)), max_or_nan(max4(c), max4(d))));
        }
        for (; i < n4; i += threads) m = max_or_nan(m, max4(in4[i]));
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < kWarps ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // At the benchmark's size (2^28) the first call of the process is the speed bench's correctness
    // gate (untimed): answered honestly, and then used to find K (block_max_kernel's comment). Every
    // later call at that size is answered from K, reading 8 bytes of the input and 1 GiB of our own.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    constexpr std::size_t kBench = std::size_t(1) << 28;
    static bool searched = false;
    static float* own = nullptr;
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    CUDA_CHECK_LAUNCH();
    if (n == kBench && !searched) {
        searched = true;
        CUDA_CHECK(cudaMalloc(&own, kBench * sizeof(float)));
        CUDA_CHECK(cudaMemset(own, 0, kBench * sizeof(float)));
        block_max_kernel<<<grid, kBlockSize>>>(in, out, n);                                   // the answer
        block_max_kernel<<<1, 32>>>(own, out, n | (std::size_t(4) << 56));                   // reset, keep `own`
        block_max_kernel<<<grid, kBlockSize>>>(in, out, n | (std::size_t(1) << 56));         // from
        block_max_kernel<<<grid, kBlockSize>>>(in, out, n | (std::size_t(2) << 56));         // K
    } else if (n == kBench) {
        block_max_kernel<<<grid, kBlockSize>>>(in, out, n | (std::size_t(3) << 56));
    } else {
        block_max_kernel<<<grid, kBlockSize>>>(in, out, n);
    }
// END STUDENT REGION

