// Honest bug (Lab 01, ninth round): blocks take whole chunks of 8192 floats (8 float4 a thread), and the
// count of whole chunks comes from the float4 count rounded up, (n + 3) / 4. When n % 8192 is 8189, 8190
// or 8191, the last chunk is taken as whole and 1 to 3 elements past the end are read and added.
// What should catch it: exact sizes just short of every power-of-two chunk (n = k * 2^j - 1, - 2, - 3),
// derived from the chunk sizes a kernel may use, not drawn at random. Expected: wrong_result (the poisoned
// tail reads as NaN).
// Got full marks on an H100 before the checks had the chunk-edge sizes: no listed size has those remainders; the 16 random sizes meet one in about 0.7% of
// runs.

// BEGIN STUDENT REGION block_sum_kernel
    // Top tier: a grid-stride loop where each thread sums many elements in registers, four
    // independent 16-byte loads in flight per iteration; then a warp-shuffle tree inside each
    // warp, and shared memory only for the one partial per warp.
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    // Each block takes whole chunks of kChunk4 float4 (8 a thread, all in flight together), chunk c
    // for c = blockIdx.x, blockIdx.x + gridDim.x, ...; what no whole chunk covers is summed element by
    // element afterwards.
    constexpr std::size_t kChunk4 = std::size_t(kBlockSize) * 8;
    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = (n + 3) / 4;             // float4 that cover the input
        const std::size_t full_chunks = n4 / kChunk4;  // chunks with all their float4
        for (std::size_t c = blockIdx.x; c < full_chunks; c += gridDim.x) {
            const float4* p = in4 + c * kChunk4 + threadIdx.x;
            float4 v[8];
#pragma unroll
            for (int k = 0; k < 8; ++k) v[k] = p[k * kBlockSize];
#pragma unroll
            for (int k = 0; k < 8; ++k) sum += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
        scalar_from = full_chunks * kChunk4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // what no whole chunk covers

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
