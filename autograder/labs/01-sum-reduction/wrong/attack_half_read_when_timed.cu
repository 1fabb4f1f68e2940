// Known-wrong Lab 01 (a measurement cheat: less work in the timed calls): the reference, but the launcher
// counts its calls at the benchmark size. The first one (the speed bench's correctness gate, right after the
// bench restarts the process) does the whole sum; every later one, which the launcher takes for a timed call,
// signals the kernel through gridDim.y == 2 to read only every other 16 KiB block of the input and double the
// sum: half the bytes, about twice the speed, and within the 1.56% tolerance for uniform inputs alone. The
// bench plants 16 values of 2e7 to 3e7 at random positions of every input; about 8 fall in the skipped blocks,
// each one beyond the tolerance, and every timed call is verified.
// Expected: wrong_result.

// BEGIN STUDENT REGION block_sum_kernel
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    // BUG (cheat): the launcher's signal (gridDim.y == 2): read every other 16 KiB block and double the sum.
    if (blockIdx.y == 1) return;
    if (gridDim.y == 2) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t half4 = n / 8;  // float4 units in the even 1024-float4 blocks
        for (std::size_t j = tid; j < half4; j += threads) {
            const float4 a = in4[(j / 1024) * 2048 + j % 1024];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        sum *= 2.0f;
    }
    std::size_t scalar_from = gridDim.y == 2 ? n : 0;
    if (gridDim.y == 1 && (reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
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

// BEGIN STUDENT REGION launch
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomicAdds reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    // BUG (cheat): after the first call at the benchmark size, take every call for a timed one.
    static int calls_at_bench_size = 0;
    const bool timed = n == (std::size_t(1) << 28) && calls_at_bench_size++ > 0;
    block_sum_kernel<<<dim3(grid, timed ? 2u : 1u), kBlockSize>>>(in, out, n);
// END STUDENT REGION
