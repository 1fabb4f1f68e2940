// Known-wrong Lab 02 (a bug only a sanitizer sees): the reference solution, except that the scalar loop
// after the float4 loop runs over whole quads, up to n rounded up to a multiple of 4, and loads in[i]
// before it tests i < n, using -INFINITY (the identity) instead of the value when i >= n. For n not a
// multiple of 4, up to three threads read as many elements past the end of the input. The maximum is
// right, NaN policy included: those values are always discarded (a select: the NaN poison the graded
// checks place after the input never reaches max_or_nan), and that poison lies inside the allocation,
// so the reads cannot fault. Only memcheck, on an input allocated to its exact size, sees reads outside
// it. Expected: memory_error.

// BEGIN STUDENT REGION block_max_kernel
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
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
    // The tail, as a whole quad: elements past n are loaded and then replaced by the identity.
    const std::size_t quads_end = (n + 3) / 4 * 4;
    for (std::size_t i = scalar_from + tid; i < quads_end; i += threads) {
        const float v = in[i];                       // BUG: loaded before the bound is tested; i may be n .. n + 2
        m = max_or_nan(m, i < n ? v : -INFINITY);  // discarded past the end, so the maximum is still right
    }

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < kWarps ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION
