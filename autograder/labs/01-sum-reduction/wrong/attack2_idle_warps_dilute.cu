// Attack (Lab 01, against the shared-memory-use check): the warps that do the work never combine through
// shared memory. Each block is 3 warps; only warp 0 reads the input (a grid-stride float4 loop, 8 loads in
// flight a lane), sums with shuffles and adds its sum to the output with its own atomicAdd. Warps 1 and 2
// read nothing: each makes one (volatile) store into a token __shared__ array and exits. So every launch
// counts, per warp LAUNCHED, 1/3 global atomic (<= 0.5 allowed) and 1 shared store (>= 0.5 needed): the
// idle warps dilute both ratios, though no two working warps ever meet in shared memory (a block of one
// working warp is a per-warp atomic reduction, which token_shared_atomic_per_warp shows is caught when the
// warps are all working). The kernel has shared memory and is the only one that runs (the CUPTI check
// passes); 21 blocks of 96 threads fit an SM, so 21 working warps a SM keep ~43 KB of loads in flight,
// enough for the speed checks.
// What should catch it: the shared-memory-use check (Nsight Compute), if its ratios counted working warps
// (warps that loaded input) rather than warps launched; today it counts launched warps, so this passes.
// Expected: technique_not_used (only the Nsight Compute item could see it).
// Caught by the timed calls' counters (reduction_bench.hpp): no shared-memory load in them at all.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float seen[4];  // BUG (technique): a token; no partial sum ever meets another in it
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (warp != 0) {  // padding warps: one shared store each, then nothing
        if (lane == 0) {
            volatile float* token = seen;
            token[warp] = 0.0f;
        }
        return;
    }
    const std::size_t tid = blockIdx.x * std::size_t(32) + lane;  // one working warp a block
    const std::size_t threads = std::size_t(gridDim.x) * 32;
    float sum = 0.0f;
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
            for (int k = 0; k < 8; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
        for (; i < n4; i += threads) {
            const float4 a = in4[i];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) {
        volatile float* token = seen;
        token[0] = sum;
        atomicAdd(out, sum);  // BUG (technique): one global atomic per working warp
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 21 * sms;  // 21 blocks of 96 threads fill an SM's 2048 threads
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(32) * 32);  // >= 32 elements a working lane
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, 96>>>(in, out, n);
// END STUDENT REGION
