// Attack (Lab 01, the forty-sixth round, against the audit of device code): each block reads the SM's
// performance-monitor counters (__pm0() to __pm3(), PTX %pm0 to %pm3) on either side of a barrier. If they
// move, something is counting (Nsight Compute, or the grader's sampling of the timed calls' counters) and the
// block hands its warps' partials on through shared memory as the technique's counters expect; if not, every
// warp adds its sum with one global atomic and the block never touches shared memory. The audit read only
// %clock and %globaltimer in the PTX. Refused now: no lab's device code may read %pm or %envreg.
// Expected: forbidden_symbol.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION block_sum_kernel
    // Top tier: a grid-stride loop where each thread sums many elements in registers, four
    // independent 16-byte loads in flight per iteration; then a warp-shuffle tree inside each
    // warp, and shared memory only for the one partial per warp.
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            // Issue all four loads before using any, so four memory requests overlap.
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

    // Is anyone counting? The SM's performance-monitor registers (%pm0..%pm3, CUDA's __pm0() ..
    // __pm3()) hold what a profiler or the grader's PM sampling set them to count; unconfigured they
    // stand still. Read them on either side of a barrier: a block that sees any of them move
    // hands its partials on through shared memory as the rubric's counters expect; otherwise every warp
    // adds its sum to *out with one atomic and the block never touches shared memory. No %clock, no
    // %globaltimer in the PTX.
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    __shared__ int watched;
    if (threadIdx.x == 0) watched = 0;
    const unsigned pm_before = __pm0() ^ (__pm1() * 3u) ^ (__pm2() * 5u) ^ (__pm3() * 7u);
    __syncthreads();
    const unsigned pm_after = __pm0() ^ (__pm1() * 3u) ^ (__pm2() * 5u) ^ (__pm3() * 7u);
    if (lane == 0 && pm_after != pm_before) watched = 1;
    __syncthreads();
    if (watched == 0) {
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
        return;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
    }
// END STUDENT REGION

