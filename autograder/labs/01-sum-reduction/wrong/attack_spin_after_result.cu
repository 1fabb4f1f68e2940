// Known-wrong Lab 01 (a measurement cheat: work after the result): the reference kernel, but at the benchmark
// size every block's thread 0 keeps its SM busy for about 2 ms after adding its partial to *out (two
// 1 ms __nanosleep calls; a clock64 spin is refused at build time), so the result is final long before
// the call's work ends. A grader that stops its clock when the output is right (or when the launcher returns) gives the reference's speed. The student's launch host
// waits for its whole device after every call (cudaDeviceSynchronize) before it answers, so the spin is
// inside the host-clock interval of every timed call: about 2 ms a call against CUB's ~0.35 ms.
// Expected: too_slow (both speed checks).

// BEGIN STUDENT REGION block_sum_kernel
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
        if (lane == 0) {
            atomicAdd(out, sum);
            // BUG (cheat): the result is in; keep the GPU busy after it, hoping the clock has stopped.
            if (n == (std::size_t(1) << 28)) {
                for (int i = 0; i < 2; ++i) __nanosleep(1000000u);  // about 2 ms (a clock read is refused)
            }
        }
    }
// END STUDENT REGION
