// Honest bug (Lab 02, ninth round): each block reduces a contiguous run of float4, and every block but the
// last stops one float4 short (an inclusive end taken as exclusive). About one element in 4096 is never
// read.
// What should catch it: the maximum planted at the ends of power-of-two runs (k * 2^j - 1 .. - 4), one
// call each, where a run that stops short drops it. Expected: wrong_result.
// Got full marks on an H100 before the checks had the maximum at every index of 2^14 + 3: the planted maxima sit in the first or last block, and a randomly placed maximum
// lands in a gap in about 1% of runs.

// BEGIN STUDENT REGION block_max_kernel
    // Top tier: a grid-stride loop where each thread keeps a running maximum in a register, four
    // independent 16-byte loads in flight per iteration; then a warp-shuffle tree inside each
    // warp, and shared memory only for the one maximum per warp.
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];  // (warps of the block)

    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;  // the identity: a thread with no elements changes nothing

    // Each block takes one contiguous run of float4, the last block what is left (and the scalar tail):
    // a block then streams through consecutive memory.
    std::size_t scalar_from = 0;
    const bool last_block = blockIdx.x + 1 == gridDim.x;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        const std::size_t per_block = (n4 + gridDim.x - 1) / gridDim.x;
        const std::size_t begin = blockIdx.x * per_block;
        const std::size_t stop = begin + per_block - 1;  // the block's last float4
        const std::size_t end = last_block || stop > n4 ? n4 : stop;
        std::size_t i = begin + threadIdx.x;
        for (; i + 3 * kBlockSize < end; i += 4 * kBlockSize) {
            // Issue all four loads before using any, so four memory requests overlap.
            const float4 a = in4[i], b = in4[i + kBlockSize], c = in4[i + 2 * kBlockSize], d = in4[i + 3 * kBlockSize];
            m = max_or_nan(m, max_or_nan(max_or_nan(max4(a), max4(b)), max_or_nan(max4(c), max4(d))));
        }
        for (; i < end; i += kBlockSize) m = max_or_nan(m, max4(in4[i]));
        scalar_from = n4 * 4;
    }
    if (last_block)
        for (std::size_t i = scalar_from + threadIdx.x; i < n; i += kBlockSize) m = max_or_nan(m, in[i]);  // the tail

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

// BEGIN STUDENT REGION launch
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomics reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 64);  // >= 64 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
