// Known-wrong Lab 02 (a measurement cheat: detecting the timed calls and reading less): the reference, but
// the launcher counts its calls at the benchmark size and the pointers it is given. The first call (the speed
// bench's gate, in a freshly started process) reads everything; from the second on, once the launcher has
// seen a second distinct input pointer (the bench's batches hand it up to 8 slots in turn), it takes the call
// for a timed one and signals the kernel (gridDim.y == 2) to read only every other 16 KiB block. For uniform
// inputs alone the maximum of half the input is almost always the same top value; but the bench plants one
// value above all the others at a random position of every input, so about half the timed calls miss it,
// and every timed call is verified exactly against CUB.
// Expected: wrong_result.

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

    // BUG (cheat): the launcher's signal (gridDim.y == 2): read only every other 16 KiB block.
    if (blockIdx.y == 1) return;
    if (gridDim.y == 2) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t half4 = n / 8;  // float4 units in the even 1024-float4 blocks
        for (std::size_t j = tid; j < half4; j += threads) m = max_or_nan(m, max4(in4[(j / 1024) * 2048 + j % 1024]));
    }
    std::size_t scalar_from = gridDim.y == 2 ? n : 0;
    if (gridDim.y == 1 && (reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
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
    for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);  // the tail (< 4 elements)

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
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    CUDA_CHECK_LAUNCH();
    // BUG (cheat): a second distinct input at the benchmark size means the timed batches have begun.
    static const float* first_input = nullptr;
    static bool batches = false;
    if (n == (std::size_t(1) << 28)) {
        if (!first_input) first_input = in;
        else if (in != first_input) batches = true;
    }
    const bool timed = n == (std::size_t(1) << 28) && batches;
    block_max_kernel<<<dim3(grid, timed ? 2u : 1u), kBlockSize>>>(in, out, n);
// END STUDENT REGION
