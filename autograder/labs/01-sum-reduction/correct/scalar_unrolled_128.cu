// Correct Lab 01, written differently from the reference: blocks of 128 threads, scalar loads only
// (four independent ones in flight per thread and iteration), __shfl_xor_sync inside each warp, and a
// shared array of four warp partials. It must pass every check.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partials[4];  // one a warp of the 128-thread block
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (; i + 3 * threads < n; i += 4 * threads) {
        s0 += in[i];
        s1 += in[i + threads];
        s2 += in[i + 2 * threads];
        s3 += in[i + 3 * threads];
    }
    for (; i < n; i += threads) s0 += in[i];
    float sum = (s0 + s1) + (s2 + s3);
    for (int mask = 16; mask > 0; mask /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, mask);
    if (threadIdx.x % 32 == 0) partials[threadIdx.x / 32] = sum;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, (partials[0] + partials[1]) + (partials[2] + partials[3]));
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static const int sms = [] {
        int device = 0, count = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
        return count;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(128) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), 16 * sms));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, 128>>>(in, out, n);
// END STUDENT REGION
