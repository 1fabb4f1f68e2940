// Known-wrong Lab 02 (a bug only a sanitizer sees): the reference's grid-stride loop (float4 loads, four
// in flight, max_or_nan throughout), then the classic pre-Volta reduction of the block: every thread's
// maximum in shared memory, a halving tree with __syncthreads() down to 64 values, and the last warp's
// six steps unrolled on a volatile pointer WITHOUT __syncwarp() between them. That relies on the warp
// running in lockstep, which independent thread scheduling (Volta and newer) no longer promises: each
// step reads values that other lanes wrote in the step before, with nothing ordering the write before
// the read. In practice the warp stays converged through this straight-line code and the maximum is
// right (NaN and -0.0 included: every step is max_or_nan, whose result is one of its operands), so every
// graded check passes; racecheck reports the shared-memory hazards between the lanes.
// Expected: race_condition.

// BEGIN STUDENT REGION block_max_kernel
    __shared__ float partial[kBlockSize];  // (kBlockSize): one maximum a thread

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;  // the identity: a thread with no elements changes nothing

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            m = max_or_nan(m, max_or_nan(max_or_nan(max4(a), max4(b)), max_or_nan(max4(c), max4(d))));
        }
        for (; i < n4; i += threads) m = max_or_nan(m, max4(in4[i]));
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);  // the tail (< 4 elements)

    const unsigned t = threadIdx.x;
    partial[t] = m;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (t < stride) partial[t] = max_or_nan(partial[t], partial[t + stride]);
        __syncthreads();
    }
    if (t < 32) {
        // BUG: "a warp runs in lockstep", so no barrier between the steps. Nothing orders one lane's
        // store before another lane's load of the same word: __syncwarp() belongs after every line.
        volatile float* v = partial;
        v[t] = max_or_nan(v[t], v[t + 32]);
        v[t] = max_or_nan(v[t], v[t + 16]);
        v[t] = max_or_nan(v[t], v[t + 8]);
        v[t] = max_or_nan(v[t], v[t + 4]);
        v[t] = max_or_nan(v[t], v[t + 2]);
        v[t] = max_or_nan(v[t], v[t + 1]);
        if (t == 0) atomic_max_float(out, v[0]);
    }
// END STUDENT REGION
