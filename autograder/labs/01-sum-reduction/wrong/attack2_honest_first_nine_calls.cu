// Attack (Lab 01, against the shared-memory-use check): the reference block reduction only for the first
// 9 calls a launch host process makes; from the 10th call on, each warp adds its shuffled sum to the
// output with its own atomicAdd (one global atomic a warp), and the __shared__ array takes a token store.
// The profile workload makes exactly 1 call in its first process (the technique check's) and 9 in the
// second (the speed gate's and one batch of 8 slots), so Nsight Compute only ever counts the honest
// kernel. A graded run makes far more calls in each process: the exact checks before the technique
// check (whose CUPTI trace sees a kernel with shared memory doing all the work, so it passes), and the
// speed process's warm-ups and 15 timed batches, all on the per-warp-atomic path (correct, and as fast).
// The switch is a function-local static in the launcher passed to the kernel as a flag.
// What should catch it: the shared-memory-use check, were it to count calls the workload cannot predict
// (e.g. a random number of extra calls before the profiled ones, or profiling a timed batch picked at
// random); instructors.md names this as a known limit. Expected: technique_not_used (Nsight Compute item).
// Caught by the timed calls' counters (reduction_bench.hpp): its timed calls load nothing from shared memory.

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
            volatile float* token = warp_partial;
            token[warp] = sum;
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
    static int calls = 0;  // calls made by this process
    const bool switched = ++calls > 9;
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
