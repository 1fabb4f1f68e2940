// Attack (Lab 01, against the timed counters' floor): attack2_honest_first_nine_calls.cu with the token
// made to count. The reference block reduction for the first 17 calls at n >= 2^28 a process makes (the
// profile workload's gate and batch of 8 in their process, or a graded run's gate and its 2 warm-up batches
// of 8, none of them sampled); from then on each warp reduces with shuffles and adds its sum to *out with
// its own atomicAdd, and one lane a block stores its sum into the __shared__ array and loads it back
// (volatile, so both are issued) before adding it. A timed call then shows one shared-memory load and one
// store wavefront a block: about 1056 each a call, far above the floor of a quarter of each a call for
// every SM (33 on an H100), while no warp's partial ever meets another's in shared memory. Nsight Compute
// counts only the honest calls; the technique check's trace (its own process, a call at 2^22) sees the
// reference kernel. Both paths are right on every input.
// What should catch it: a floor in proportion to the warps launched (one shared store for every warp
// but one, and a load for every block, in every timed call), or global atomics counted in the timed calls
// (one a warp, where the technique needs one a block). Expected: technique_not_used.
// Caught on an H100 by the floor a warp: 0.14 store wavefronts for each warp launched but one a block,
// where 0.75 are needed (it passes the floors a call and a block, and Nsight Compute counts honest calls).

// BEGIN STUDENT REGION block_sum_kernel
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];
    const bool per_warp_atomics = (n >> 63) != 0;  // the launcher's flag, in the top bit of n
    const std::size_t count = n & ~(std::size_t(1) << 63);
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;
    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = count / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
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
    for (std::size_t i = scalar_from + tid; i < count; i += threads) sum += in[i];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (per_warp_atomics) {  // BUG (technique): after the profiled calls, the warps never meet
        if (lane == 0) {
            if (warp == 0) {  // the token: one shared store and one shared load a block
                volatile float* token = warp_partial;
                token[0] = sum;
                sum = token[0];
            }
            atomicAdd(out, sum);
        }
        return;
    }
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    static int large_calls = 0;  // calls at n >= 2^28 made by this process
    const bool switched = n >= (std::size_t(1) << 28) && ++large_calls > 17;
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, switched ? (n | (std::size_t(1) << 63)) : n);
// END STUDENT REGION
