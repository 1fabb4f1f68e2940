// Attack (Lab 02, against the shared-memory-use check): no block ever combines its warps' maxima in shared
// memory. Each block is 4 warps; only warp 0 reads the input (a grid-stride float4 loop, 8 loads in flight
// a lane), combines with shuffles and max_or_nan, and calls atomic_max_float itself. Warps 1 to 3 load
// nothing: each makes one volatile store into a token __shared__ array and exits. Per warp LAUNCHED that
// is 1/4 global atomic (<= 0.5 allowed) and 1 shared store (>= 0.5 needed), so both rules hold while no
// two working warps meet: padding warps dilute the ratios. Correct on every input (NaN policy and -0.0
// as the reference's), the graded kernel has shared memory and does all the work (the CUPTI check passes);
// 16 blocks of 128 threads an SM give 16 working warps with 128 bytes in flight a lane, for the speed checks.
// What should catch it: the shared-memory-use check if it judged warps that did work (loaded input) or
// blocks, not warps launched; today it counts launched warps. Expected: technique_not_used (Nsight Compute).
// Caught by the timed calls' counters (reduction_bench.hpp): no shared-memory load in them at all.

// BEGIN STUDENT REGION block_max_kernel
    __shared__ float seen[4];  // BUG (technique): a token; no maximum ever meets another in it
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (warp != 0) {  // padding warps
        if (lane == 0) {
            volatile float* token = seen;
            token[warp] = -INFINITY;
        }
        return;
    }
    const std::size_t tid = blockIdx.x * std::size_t(32) + lane;
    const std::size_t threads = std::size_t(gridDim.x) * 32;
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;
    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 7 * threads < n4; i += 8 * threads) {
            float4 v[8];
#pragma unroll
            for (int k = 0; k < 8; ++k) v[k] = in4[i + k * threads];
#pragma unroll
            for (int k = 0; k < 8; ++k) m = max_or_nan(m, max4(v[k]));
        }
        for (; i < n4; i += threads) m = max_or_nan(m, max4(in4[i]));
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (lane == 0) {
        volatile float* token = seen;
        token[0] = m;
        atomic_max_float(out, m);  // BUG (technique): one global atomic per working warp
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 16 * sms;  // 16 blocks of 128 threads fill an SM
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(32) * 32);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, 128>>>(in, out, n);
// END STUDENT REGION
