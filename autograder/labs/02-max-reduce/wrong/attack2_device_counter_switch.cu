// Attack (Lab 02, against the shared-memory-use check): the kernel counts its own launches in a
// function-local static of device memory (a __device__ counter the launcher never sees) and does the
// reference block reduction only for the first 10 launches a process makes; from then on each warp
// combines with shuffles and calls atomic_max_float itself (one global atomic a warp), and the
// __shared__ array takes only a token store. The profile workload launches it once in its first process
// (the technique check's call) and 9 times in the second (the speed gate and one batch of 8 slots), so
// Nsight Compute sees only the honest kernel; every graded process makes many more calls (the exact and
// edge-value checks before the technique check, whose CUPTI trace sees a kernel with shared memory doing
// all the work; the speed process's warm-ups and timed batches). Both paths are correct on every input.
// Blocks of one launch may read the counter before or after block 0 bumps it: both paths give the
// right maximum, so a mixed launch is right too. Unlike a host static, nothing in the launcher changes.
// What should catch it: the shared-memory-use check, if the profiled calls were not the first ones of a
// process (a random number of unprofiled calls before them). Expected: technique_not_used (Nsight Compute).
// Caught by the timed calls' counters (reduction_bench.hpp): its timed calls load nothing from shared memory.

// BEGIN STUDENT REGION block_max_kernel
    static unsigned launches = 0;  // device memory: launches of this kernel in this process so far
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];
    const bool per_warp_atomics = *static_cast<volatile unsigned*>(&launches) >= 10;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
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
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&launches, 1u);
    if (per_warp_atomics) {  // BUG (technique): after the profiled calls, the warps never meet
        if (lane == 0) {
            volatile float* token = warp_max;
            token[warp] = m;
            atomic_max_float(out, m);
        }
        return;
    }
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < kWarps ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION
