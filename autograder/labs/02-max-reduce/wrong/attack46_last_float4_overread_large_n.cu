// Attack (Lab 02, the forty-sixth round): from n >= 2^20 with n % 4 != 0, the input's last
// partial float4 is read whole by one thread (4 to 12 bytes past the end of the input), the lanes past n
// ignored. Below 2^20, the reference's scalar tail.
// Why it passes: the value read past n is never used, so every result is exact (the checks' inputs are
// followed by poison inside their allocation, and the 2^31 + 5 / 2^32 + 5 inputs are cudaMalloc
// allocations whose 2 MiB granularity puts 12 bytes past the end in mapped memory: no fault). memcheck,
// the only tool that sees reads past an allocation, runs max_reduce only at n = 1, 33, 1000, 16391 and the
// residue sizes (autograder/labs/02-max-reduce/checks.cpp:582-590; racecheck alone adds 2^24 + 5, and
// racecheck does not report global reads): no size >= 2^20 runs under memcheck. The bench (2^28) is a
// multiple of 4 and takes the reference's path: speed, counters, Nsight Compute unchanged.
// Deserves: memory_error (memcheck at n = 2^20 + 1 on an input of exactly n floats reports it).
// 
// Caught now: memcheck runs at 2^24 + 5 too (and at a size from 2^20 to 2^24 drawn from the run's seed).
// Expected: memory_error.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION block_max_kernel
    // Top tier: a grid-stride loop where each thread keeps a running maximum in a register, four
    // independent 16-byte loads in flight per iteration; then a warp-shuffle tree inside each
    // warp, and shared memory only for the one maximum per warp.
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;  // the identity: a thread with no elements changes nothing

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            // Issue all four loads before using any, so four memory requests overlap.
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            m = max_or_nan(m, max_or_nan(max_or_nan(max4(a), max4(b)), max_or_nan(max4(c), max4(d))));
        }
        for (; i < n4; i += threads) m = max_or_nan(m, max4(in4[i]));
        scalar_from = n4 * 4;
    }
    if (scalar_from != 0 && n % 4 != 0 && n >= (std::size_t(1) << 20)) {
        // Large inputs: the tail as one 16-byte load of the last partial float4, its lanes past n unused.
        if (tid == 0) {
            const float4 v = reinterpret_cast<const float4*>(in)[n / 4];
            m = max_or_nan(m, v.x);
            if (n % 4 > 1) m = max_or_nan(m, v.y);
            if (n % 4 > 2) m = max_or_nan(m, v.z);
        }
    } else {
        for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);  // the tail (< 4 elements)
    }

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();  // every warp's maximum is in shared memory before warp 0 reads them
    if (warp == 0) {
        m = lane < kWarps ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION

