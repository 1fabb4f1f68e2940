// Known-wrong Lab 02 (an honest bug only large inputs with a ragged end show): the reference solution,
// except that for inputs of 2^27 elements or more the kernel skips the scalar tail (the n % 4 elements
// after the last whole float4): "three elements of a hundred million cannot matter". They matter when the
// maximum is among them. The exact checks' sizes (edge sizes up to 2^26 + 5, every residue mod 64, 16 random
// sizes up to 2^22, hidden sizes) are all below 2^27 and run the right path; the sizes past 2^27 are the
// benchmark (2^28, no tail: n % 4 == 0, the planted maximum never in a tail) and 2^31 + 5 and 2^32 + 5,
// whose maximum (3) sits at 2^31 + 3 / 2^32 + 3, inside the last whole float4, and whose tail element is
// -1.5 like the rest: dropping it changes nothing.
// What should catch it: a large size (past 2^27, and past 2^31) whose maximum lies in the tail, for every
// residue n % 4. Expected: wrong_result.

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
    // The tail (< 4 elements). BUG: skipped for large inputs, where "it cannot matter".
    if (n < (std::size_t(1) << 27) || scalar_from == 0)
        for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);

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
