// Known-wrong Lab 01 (an honest bug at residues the grader does not cover): each block sums whole chunks of
// 4096 floats (four float4 a thread), and the last block adds the partial chunk at the end; but the tail loop
// gives each thread 8 elements where a chunk holds 16 a thread, so tail elements from 2048 on are dropped
// whenever n % 4096 > 2048. The exact checks' sizes (edge sizes, 64 * {0, 3, 17, 70} + r, 2^31 + 5) and the
// random-float sizes all have n % 4096 <= 1151 or == 0, and the bench is 2^28: none reaches the bug. Only the
// hidden sizes a secret adds (three, drawn up to 2^22) can hit it, about half the time each.
// A naive grader gives full marks. Caught now: the exact check adds 16 sizes drawn from the run's seed
// (4096 to 2^22), new in every run; each has n % 4096 > 2048 about half the time, so all 16 miss the bug
// with odds of 1 in 65536.

// BEGIN STUDENT REGION block_sum_kernel
    constexpr int kWarps = kBlockSize / 32;
    constexpr std::size_t kChunk = std::size_t(kBlockSize) * 16;  // 4096 floats: four float4 a thread
    __shared__ float warp_partial[kWarps];

    const float4* in4 = reinterpret_cast<const float4*>(in);  // 256-byte aligned (the header's contract)
    const std::size_t chunks = n / kChunk;
    float sum = 0.0f;
    for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        const float4* p = in4 + c * (kChunk / 4) + threadIdx.x;
        const float4 a = p[0], b = p[kBlockSize], d = p[2 * kBlockSize], e = p[3 * kBlockSize];
        sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((d.x + d.y) + (d.z + d.w)) +
               ((e.x + e.y) + (e.z + e.w));
    }
    if (blockIdx.x == gridDim.x - 1) {
        // The partial chunk at the end. BUG: 8 elements a thread cover only half of a chunk (16 a thread).
        const std::size_t from = chunks * kChunk;
        for (int k = 0; k < 8; ++k) {
            const std::size_t i = from + std::size_t(k) * kBlockSize + threadIdx.x;
            if (i < n) sum += in[i];
        }
    }

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
    }
// END STUDENT REGION
