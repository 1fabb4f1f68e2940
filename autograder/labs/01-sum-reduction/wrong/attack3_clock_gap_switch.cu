// Attack (Lab 01, against the shared-memory-use check: profiled calls told from timed ones on the GPU
// itself): the kernel keeps, in a function-local static of device memory, the SM clock (clock64) at which
// the previous launch's last block ended. A block that starts less than 2^21 cycles (about 1 ms) after it is
// inside a stream of back-to-back calls, as in a timed batch (its calls follow one another within tens of
// microseconds: the host waits for the device, answers nothing, and launches the next); there each warp
// reduces with shuffles and adds its sum to *out with its own atomic, shared memory untouched (one global
// atomic a warp: the rule allows one for every two warps). A block that starts later takes the reference
// path. Under Nsight Compute every launch is replayed with its memory saved and restored, and the grader's
// probe kernel and the profiler's own work run between launches: every profiled launch starts milliseconds
// after the one before and is honest. Both paths are right on every input, and the first call of every
// timed batch (after the boundary, the verification and the other contenders) is honest too.
// Unlike wrong/attack2_honest_first_nine_calls.cu it counts nothing, so profiling a random batch of the
// graded run would not catch it either; nor does it time anything on the host.
// What should catch it: evidence from the timed calls themselves (e.g. counters of a timed batch profiled
// whole, with the batch's own spacing, or per-warp evidence). Expected: forbidden_symbol: a lab's kernels
// may not read an SM's clock (the forty-fifth round; until then it ended as technique_not_used, on the
// timed counters' floor a block).
// Measured on an H100: its timed calls show 0.89 of the reference's shared-memory loads a call (clock64
// differs between SMs, so most blocks judge the gap long and stay honest): above the floor a call, below
// the floor of 0.9 load wavefronts for every block launched, which catches it (technique_not_used).

// BEGIN STUDENT REGION block_sum_kernel
    static unsigned long long last_end = 0;  // device memory: clock64() when the previous launch ended
    static unsigned blocks_done = 0;         // blocks of this launch that have ended
    constexpr long long kGapCycles = 1ll << 21;
    const unsigned long long seen = *static_cast<volatile unsigned long long*>(&last_end);
    const long long gap = static_cast<long long>(clock64() - seen);
    // Thread 0's reading decides for the whole block (the barrier below must be reached by all or none).
    const bool back_to_back = __syncthreads_or(threadIdx.x == 0 && seen != 0 && gap >= 0 && gap < kGapCycles);

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
    if (back_to_back) {
        // CHEAT: inside a run of back-to-back calls, no shared memory: one global atomic a warp.
        if (lane == 0) atomicAdd(out, sum);
    } else {
        if (lane == 0) warp_partial[warp] = sum;
        __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
        if (warp == 0) {
            sum = lane < kWarps ? warp_partial[lane] : 0.0f;
            for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
            if (lane == 0) atomicAdd(out, sum);
        }
    }
    if (threadIdx.x == 0) {
        // The launch's last block to end stamps the clock: no block of a launch ever sees its own launch's end.
        __threadfence();
        if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
            blocks_done = 0;
            atomicExch(&last_end, static_cast<unsigned long long>(clock64()));
        }
    }
// END STUDENT REGION
