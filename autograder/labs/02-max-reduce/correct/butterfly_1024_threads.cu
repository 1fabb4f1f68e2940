// Correct Lab 02, written differently from the reference: blocks of 1024 threads, a butterfly
// (__shfl_xor_sync) inside each warp so every lane ends with the warp's maximum, dynamic shared memory
// for the per-warp maxima, and scalar loads only. It must pass every check.

// BEGIN STUDENT REGION block_max_kernel
    extern __shared__ float warp_max[];  // blockDim.x / 32 floats, given at launch
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float m = -INFINITY;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += threads)
        m = max_or_nan(m, in[i]);
    for (int mask = 16; mask > 0; mask /= 2) m = max_or_nan(m, __shfl_xor_sync(0xffffffffu, m, mask));
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < warps ? warp_max[lane] : -INFINITY;
        for (int mask = 16; mask > 0; mask /= 2) m = max_or_nan(m, __shfl_xor_sync(0xffffffffu, m, mask));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    constexpr unsigned kThreads = 1024;
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 2u * static_cast<unsigned>(sms);
    }();
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(course::ceil_div(n, std::size_t(kThreads)), blocks));
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, kThreads, (kThreads / 32) * sizeof(float)>>>(in, out, n);
// END STUDENT REGION
