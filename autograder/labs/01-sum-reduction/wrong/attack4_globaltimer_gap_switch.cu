// Attack (Lab 01, against the shared-memory-use check and the timed counters' floor): the switch of
// attack3_clock_gap_switch.cu on the GPU's global timer instead of an SM's clock. cuda::std::chrono::
// system_clock::now() reads %globaltimer in device code (libcu++ does the reading, so the region holds no
// asm and the object imports nothing: the host side of now() is never compiled for a kernel). The timer
// is the same on every SM, so the launch's first block to start decides for all its blocks: when the
// launch starts less than 1 ms after the previous launch's last block ended (back to back, as in every
// timed batch after its first call), each warp reduces with shuffles and adds its sum to *out with its own
// atomic, shared memory untouched; otherwise (the first call of every batch, every call of the checks
// before, every launch Nsight Compute replays) it is the reference block reduction. Both paths are right.
// A batch of 8 calls then shows the shared-memory wavefronts of one honest call (about 1060 loads and 8890
// stores): 130 loads and 1100 stores a call, above the floor of a quarter of each a call for every SM (33
// on an H100), which is not in proportion to the blocks launched. Nsight Compute sees only honest launches.
// What should catch it: a floor in proportion to the blocks or warps launched (each block stores and loads
// at least once in every call), or per-warp evidence from the timed calls: technique_not_used.
// On an H100 it passed every check: the launch's flag, broadcast through a __shared__ int, is itself a store
// and 8 loads a block in every call, above the floor per block too (0.9 of each), and Nsight Compute counts
// honest launches. Now refused before it runs (refused_region): a region may not read the global timer
// (chrono, globaltimer), which no lab needs.

// BEGIN STUDENT REGION block_sum_kernel
    // Device memory, kept from launch to launch: the global timer (ns) when the previous launch's last block
    // ended, when this launch's first block started, and the blocks of this launch started and ended.
    static unsigned long long last_end = 0, launch_start = 0;
    static unsigned blocks_started = 0, blocks_done = 0;
    constexpr unsigned long long kGapNs = 1000000ull;  // 1 ms
    __shared__ int launch_back_to_back;
    if (threadIdx.x == 0) {
        const unsigned long long now =
            static_cast<unsigned long long>(cuda::std::chrono::system_clock::now().time_since_epoch().count());
        if (atomicAdd(&blocks_started, 1u) == 0) atomicExch(&launch_start, now | 1ull);  // never 0
        unsigned long long start;
        while ((start = *static_cast<volatile unsigned long long*>(&launch_start)) == 0) {
        }  // the first block is running: it publishes soon
        const unsigned long long ended = *static_cast<volatile unsigned long long*>(&last_end);
        launch_back_to_back = ended != 0 && start >= ended && start - ended < kGapNs;
    }
    __syncthreads();
    const bool back_to_back = launch_back_to_back != 0;  // the same for every block of the launch

    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
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
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // the tail (< 4 elements)

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (back_to_back) {
        // CHEAT: inside a run of back-to-back calls, no shared memory: one global atomic a warp.
        if (lane == 0) atomicAdd(out, sum);
    } else {
        if (lane == 0) warp_partial[warp] = sum;
        __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
        if (warp == 0) {
            sum = lane < kWarps ? warp_partial[lane] : 0.0f;
            for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
            if (lane == 0) atomicAdd(out, sum);
        }
    }
    if (threadIdx.x == 0) {
        // The launch's last block to end stamps the timer and resets the launch's counts (the next launch on
        // the stream starts only after it).
        __threadfence();
        if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
            blocks_done = 0;
            blocks_started = 0;
            launch_start = 0;
            __threadfence();
            atomicExch(&last_end, static_cast<unsigned long long>(
                                      cuda::std::chrono::system_clock::now().time_since_epoch().count()));
        }
    }
// END STUDENT REGION
