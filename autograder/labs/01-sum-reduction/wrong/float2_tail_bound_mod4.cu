// Known-wrong Lab 01 (a bug only some sizes show): the reference solution, except that the remainder
// after the float4 loop is taken as a float2 and then one element, and the float2's bound is off by one:
// `left > 2` where `left >= 2` is meant. With three left the pair is added; with exactly two left
// (n % 4 == 2) it is skipped, and the scalar loop starts past it, so the last two elements are lost.
// Right at every n % 4 != 2, so a hand-picked list of sizes (1, 31, 32, 33, 255, 256, 257, 1000, ...: none
// of them 2 mod 4) passed it. Now the exact check's sizes hold every residue mod 64 (residues.hpp), and
// the two lost integers change the exact sum (16 of those sizes are 2 mod 4). Expected: wrong_result.

// BEGIN STUDENT REGION block_sum_kernel
    // Top tier: a grid-stride loop where each thread sums many elements in registers, four
    // independent 16-byte loads in flight per iteration; then a warp-shuffle tree inside each
    // warp, and shared memory only for the one partial per warp.
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
        // The remainder (0 to 3 elements): a float2 when two or more are left, then the last one alone.
        const std::size_t left = n - scalar_from;
        if (left > 2 && tid == 0) {  // BUG: should be left >= 2; with exactly two left the pair is skipped
            const float2 pair = *reinterpret_cast<const float2*>(in + scalar_from);
            sum += pair.x + pair.y;
        }
        scalar_from += left & 2;  // past the pair, taken or not
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // the last element, if any

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
