// Attack (Lab 01, against the region rules and the audit): the GPU's global timer read through libcu++,
// without naming it: cuda::std::__cccl_thread_poll_with_backoff (which cooperative_groups/reduce.h brings
// in) answers "have 1000 ns of %globaltimer time passed?". The same timer attack4_globaltimer_gap_switch
// used to tell a timed batch's back-to-back launches from the others; the region rules refuse its names
// (chrono, globaltimer), not this one. It assembled, compiled and passed the audit, with two %globaltimer
// reads in its PTX. What catches it now: the audit reads the PTX of everything the lab's code compiles to.
// Expected: forbidden_symbol. The regions not given here are the solution's.

// BEGIN STUDENT REGION block_sum_kernel
    {   // global-timer oracle without naming chrono: has 1 us of %globaltimer time passed?
        using namespace cuda::std::literals;
        const bool finished = cuda::std::__cccl_thread_poll_with_backoff([] { return false; }, 1000ns);
        if (finished && threadIdx.x == 999) out[1] = 0.0f;
    }
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

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
    }
    // END STUDENT REGION
