// Known-wrong Lab 01 (an honest bug): the reference solution, except that the kernel narrows the element
// count to int (as a launcher written for int sizes would). Up to 2^31 - 1 elements nothing changes;
// past that the count is negative, no element is read and the sum is 0. Every size of the graded
// checks is below 2^31 except 2^31 + 5, which the exact check adds where the GPU has 9 GiB to spare.
// Expected: wrong_result.

// BEGIN STUDENT REGION block_sum_kernel
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    // BUG: the element count narrowed to int. Past 2^31 - 1 elements it is negative, no loop runs, and
    // the sum is 0.
    const int count = static_cast<int>(n);
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const long long n4 = count / 4;
        std::size_t i = tid;
        for (; static_cast<long long>(i + 3 * threads) < n4; i += 4 * threads) {
            // Issue all four loads before using any, so four memory requests overlap.
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
                   ((d.x + d.y) + (d.z + d.w));
        }
        for (; static_cast<long long>(i) < n4; i += threads) {
            const float4 a = in4[i];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        scalar_from = n4 * 4;
    }
    for (long long i = static_cast<long long>(scalar_from + tid); i < count; i += static_cast<long long>(threads)) sum += in[i];

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
