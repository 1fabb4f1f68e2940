// Attack (Lab 01, the forty-sixth round): the known-wrong warp_unrolled_without_sync
// (the last warp's six steps on a volatile pointer with no __syncwarp(): a shared-memory race that
// independent thread scheduling allows and racecheck reports), taken only when n >= 2^25; below it the
// steps are separated by __syncwarp() (race-free).
// Why it passes: in graded runs the unsynchronised warp stays converged and the sum is right (the known
// variant's own finding: it fails only through racecheck). The racecheck/synccheck workload
// (autograder/labs/01-sum-reduction/checks.cpp:284-293) runs n = 1, 33, 1000, 16391, the residue sizes
// and kLoopingN = 2^24 + 5 (line 282): all below 2^25, so the racy path never runs under the tool. The
// graded calls at 2^28 (speed), 2^31 + 5 and 2^32 + 5 take it, unobserved. Technique floors: every warp
// stores its partial into shared memory, as the known variant.
// Deserves: race_condition.
// 
// A known hole by reading (the forty-sixth round), not yet graded on a GPU: its test expects the class
// it deserves. Expected: race_condition.
// The regions not given here are the solution's.

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
        if (n >= (std::size_t(1) << 25)) {  // large inputs: the lockstep warp, no barriers (n is uniform)
            v[t] += v[t + 32];
            v[t] += v[t + 16];
            v[t] += v[t + 8];
            v[t] += v[t + 4];
            v[t] += v[t + 2];
            v[t] += v[t + 1];
        } else {
            for (unsigned s = 32; s > 0; s /= 2) {
                const float mine = v[t] + v[t + s];
                __syncwarp();
                v[t] = mine;
                __syncwarp();
            }
        }
        if (t == 0) atomicAdd(out, v[0]);
    }
// END STUDENT REGION

