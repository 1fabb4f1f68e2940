// Known-wrong Lab 01 (a measurement cheat): the basic tier, but at the benchmark size each input
// pointer's sum is computed once and kept; a later call with the same pointer copies 4 bytes instead of
// reading 1 GiB. The cache holds 16 inputs, more than the speed checks' slots (8 at most, bench_slots()),
// so every timed call after the first round hits it. The speed checks refill the inputs with fresh contents
// before every call, so the kept sums are stale and the timed calls' results are wrong.
// Expected: wrong_result.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // BUG (cheat): a cache of sums keyed by the input's address and size.
    constexpr int kCached = 16;
    static const float* cached_in[kCached] = {};
    static float* cached_sum = nullptr;
    static std::size_t cached_n[kCached] = {};
    if (n >= (std::size_t(1) << 24)) {
        if (!cached_sum) CUDA_CHECK(cudaMalloc(&cached_sum, kCached * sizeof(float)));
        for (int k = 0; k < kCached; ++k)
            if (cached_in[k] == in && cached_n[k] == n) {
                CUDA_CHECK(cudaMemcpyAsync(out, cached_sum + k, sizeof(float), cudaMemcpyDeviceToDevice));
                return;
            }
    }
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    if (n >= (std::size_t(1) << 24)) {
        static int next = 0;
        cached_in[next] = in;
        cached_n[next] = n;
        CUDA_CHECK(cudaMemcpyAsync(cached_sum + next, out, sizeof(float), cudaMemcpyDeviceToDevice));
        next = (next + 1) % kCached;
    }
// END STUDENT REGION
