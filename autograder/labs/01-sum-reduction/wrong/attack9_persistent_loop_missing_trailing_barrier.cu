// Honest bug (Lab 01, ninth round): persistent blocks loop over chunks of 8192 floats and reduce each
// through warp_partial[], with no __syncthreads() after warp 0 reads the partials: a fast warp's write for
// the next chunk can overtake that read (a write-after-read race). A block loops only when
// n > 8 * SMs * 8192 (8.65 million on 132 SMs).
// What should catch it: the memory and race check at a size where the kernel's blocks loop (or with the
// grid made small through a workload argument). Expected: race_condition.
// Got full marks on an H100 before the checks had racecheck at 2^24 + 5: the memory check's sizes (up to 16391) run one chunk a block, and at the large sizes
// the race needs warp 0 stalled for a whole memory round trip.

// BEGIN STUDENT REGION block_sum_kernel
    // Each block walks over whole chunks of kChunk elements (chunk c, c + gridDim.x, ...), 8 float4 a
    // thread in flight at once; each chunk is reduced by the block (shuffles inside each warp, one
    // partial a warp through shared memory, warp 0 combines them), and thread 0 keeps the block's
    // running total in a register: one atomicAdd a block at the end.
    constexpr int kWarps = kBlockSize / 32;
    constexpr std::size_t kChunk = std::size_t(kBlockSize) * 32;  // 8192 elements
    __shared__ float warp_partial[kWarps];

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const bool aligned = (reinterpret_cast<std::uintptr_t>(in) & 15) == 0;  // float4 needs 16-byte alignment
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    float block_total = 0.0f;  // thread 0's
    for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x) {
        const std::size_t base = c * kChunk;
        float sum = 0.0f;
        if (aligned && base + kChunk <= n) {
            const float4* p = reinterpret_cast<const float4*>(in + base) + threadIdx.x;
            float4 v[8];
#pragma unroll
            for (int k = 0; k < 8; ++k) v[k] = p[k * kBlockSize];
#pragma unroll
            for (int k = 0; k < 8; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        } else {
            const std::size_t end = n < base + kChunk ? n : base + kChunk;
            for (std::size_t i = base + threadIdx.x; i < end; i += kBlockSize) sum += in[i];
        }
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) warp_partial[warp] = sum;
        __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
        if (warp == 0) {
            sum = lane < kWarps ? warp_partial[lane] : 0.0f;
            for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
            if (lane == 0) block_total += sum;
        }
    }
    if (threadIdx.x == 0) atomicAdd(out, block_total);
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
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 32);  // one block a chunk, at most
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
