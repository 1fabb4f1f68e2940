// Attack (Lab 01, against the timed counters, the forty-fifth round): a speed ratio that falls just short
// of its threshold (at least 0.85 of it) is measured again, and the grader keeps each check's best round
// but judges the technique once, on the counters of all rounds added up. So the first round runs an honest
// kernel slowed on purpose (a re-read of 58% of the input: 0.646x CUB on an H200, in the near-miss window),
// with extra shared-memory traffic; after exactly the calls the first round makes, a kernel with no
// shared memory at all (shuffles and one atomic a warp) runs the second round at full speed. The profiled
// calls, the technique trace and the memory check's workload all fall within the first round's calls.
// Averaged over both rounds the counters clear every floor. What catches it: every round of a measurement
// is judged on its own counters too (speed.hpp, judge_timed_technique), and the second has no shared-memory
// traffic. Expected: technique_not_used (not yet graded on a GPU; the call count of a round is the
// H200's: 1 + 13 x slots).
// The regions not given here are the solution's.

// BEGIN STUDENT REGION block_sum_kernel
    // Two behaviours, chosen by the launcher and passed as the top bit of n (no size reaches 2^63):
    //  - "first round" (the bit set): the reference tree (float4 grid-stride loop, shuffles, one
    //    partial a warp through shared memory, one atomicAdd a block), with extra shared traffic
    //    (each warp stores its partial twice, warp 0 loads them four times) and an extra pass that
    //    re-reads 58% of the input and throws it away: right, but about 0.65x CUB;
    //  - afterwards (the bit clear): the same loop and shuffles, then one atomicAdd a warp:
    //    no shared memory at all.
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const bool first_round = (n >> 63) != 0;
    n &= ~(std::size_t(1) << 63);
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    const bool vec = (reinterpret_cast<std::uintptr_t>(in) & 15) == 0;
    if (vec) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
                   ((d.x + d.y) + (d.z + d.w));
        }
        for (; i < n4; i += threads) {
            const float4 a = in4[i];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // the tail (< 4 elements)

    if (first_round && vec) {
        // Time only: the first 58% of the input again (long gone from L2 by now), summed and dropped.
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t extra4 = (n / 4) / 100 * 58;
        float junk = 0.0f;
        std::size_t i = tid;
        for (; i + 3 * threads < extra4; i += 4 * threads) {
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            junk += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
                    ((d.x + d.y) + (d.z + d.w));
        }
        for (; i < extra4; i += threads) {
            const float4 a = in4[i];
            junk += (a.x + a.y) + (a.z + a.w);
        }
        if (junk == -1.0e30f) atomicAdd(out, 0.0f);  // never taken; keeps the loads
    }

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (first_round) {
        volatile float* slots = warp_partial;
        if (lane == 0) {
            slots[warp] = sum;
            slots[warp] = sum;
        }
        __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
        if (warp == 0) {
            float s = 0.0f;
#pragma unroll 1
            for (int rep = 0; rep < 4; ++rep) s = lane < kWarps ? slots[lane] : 0.0f;
            for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
            if (lane == 0) atomicAdd(out, s);
        }
    } else {
        if (lane == 0) atomicAdd(out, sum);  // no shared memory: one atomic a warp
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // The speed bench's process makes 1 + 13 * slots calls in its first measurement round (the gate's,
    // a warm-up batch, 9 timed and 3 sampled batches of `slots` calls: speed.hpp, isolation.cpp), slots
    // being bench_slots() of 1 GiB inputs: a quarter of the GPU's memory, 2 to 8. Up to then, the
    // honest (slowed) kernel; after it, the one without shared memory.
    static long long calls = 0;
    static const long long first_round_calls = [] {
        int device = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        cudaDeviceProp prop{};
        CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
        const std::size_t fit = prop.totalGlobalMem / 4 / (std::size_t(1) << 30);
        const long long slots = static_cast<long long>(std::min<std::size_t>(std::max<std::size_t>(fit, 2), 8));
        return 1 + 13 * slots;
    }();
    ++calls;
    const bool first_round = calls <= first_round_calls;
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, first_round ? (n | (std::size_t(1) << 63)) : n);
// END STUDENT REGION

