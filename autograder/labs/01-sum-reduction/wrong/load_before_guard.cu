// Known-wrong Lab 01 (a bug only a sanitizer sees): the reference solution, except that the scalar loop
// after the float4 loop runs over whole quads, up to n rounded up to a multiple of 4, and loads in[i]
// before it tests i < n, keeping the value only when i < n. For n not a multiple of 4, up to three
// threads read as many elements past the end of the input. The sum is right: those values are always
// discarded (a select, not an add), and the graded checks place poison after the input inside its
// allocation, so the reads cannot fault. Only memcheck, on an input allocated to its exact size, sees
// reads outside it. Expected: memory_error.

// BEGIN STUDENT REGION block_sum_kernel
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
    // The tail, as a whole quad: elements past n are loaded and then replaced by 0.
    const std::size_t quads_end = (n + 3) / 4 * 4;
    for (std::size_t i = scalar_from + tid; i < quads_end; i += threads) {
        const float v = in[i];    // BUG: loaded before the bound is tested; i may be n, n + 1 or n + 2
        sum += i < n ? v : 0.0f;  // discarded past the end, so the sum is still right
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
