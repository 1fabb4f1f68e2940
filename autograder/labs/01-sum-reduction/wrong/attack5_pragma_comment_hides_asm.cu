// Attack (Lab 01, against the region rules): a comment opened on a `#pragma unroll` line. For the
// compiler, `#pragma unroll /*` opens a block comment that carries the directive on into the next line,
// where `*/` closes it and the string "/*" follows (the compiler only warns that the pragma is misplaced);
// a lexer that skipped the directive's line alone saw that next line open a comment of its own, running to
// the `*/` of `//*/`. Between them, hidden from the rules and compiled: inline PTX reading %globaltimer
// (any code could stand there, # directives included). It assembled, compiled and passed the audit.
// Expected: refused_region (a #pragma unroll line may hold no /* */ comment). The regions not given here
// are the solution's.

// BEGIN STUDENT REGION block_sum_kernel
    unsigned long long hidden_t = 0;
#pragma unroll /*
" */ "/*"
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(hidden_t)); //*/
    if (hidden_t == 1ull) out[1] = 0.0f;
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
