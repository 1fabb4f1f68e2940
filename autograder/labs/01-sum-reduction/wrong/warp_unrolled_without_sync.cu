// Known-wrong Lab 01 (a bug only a sanitizer sees): the reference's grid-stride loop (float4 loads, four
// in flight), then the classic pre-Volta reduction of the block: every thread's sum in shared memory, a
// halving tree with __syncthreads() down to 64 values, and the last warp's six steps unrolled on a
// volatile pointer WITHOUT __syncwarp() between them. That relies on the warp running in lockstep, which
// independent thread scheduling (Volta and newer) no longer promises: each step reads values that other
// lanes wrote in the step before, with nothing ordering the write before the read. In practice the warp
// stays converged through this straight-line code and the sum is right, so every graded check passes;
// racecheck reports the shared-memory hazards between the lanes. Expected: race_condition.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];  // (kBlockSize): one sum a thread

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

    const unsigned t = threadIdx.x;
    partial[t] = sum;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        // BUG: "a warp runs in lockstep", so no barrier between the steps. Nothing orders one lane's
        // store before another lane's load of the same word: __syncwarp() belongs after every line.
        volatile float* v = partial;
        v[t] += v[t + 32];
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
        if (t == 0) atomicAdd(out, v[0]);
    }
// END STUDENT REGION
