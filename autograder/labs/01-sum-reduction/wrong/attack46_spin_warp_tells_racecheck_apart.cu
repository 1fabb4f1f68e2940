// Attack (Lab 01, the forty-sixth round, against the race check): attack45_clock_tells_racecheck_apart with
// no timer at all. Thread 32 runs chains of 256 dependent integer multiply-adds in registers and looks at a
// shared flag between chains while thread 0 makes 32 shared-memory round trips and then raises the flag: one
// or two looks in a graded run, many under racecheck, where each shared access costs about 100,000 cycles.
// Above 16 looks the block is "careful"; otherwise its last warp runs its steps without __syncwarp(), a race
// only racecheck reports. No rule on compiled code can see it: it is concurrency and arithmetic. What would
// catch it: a race check on the graded runs' own path, in a process that cannot tell it from a graded one.
// 
// Graded on an H200 (2026-12-03): race_condition, but for its probe, not for the steps it hides: the flag
// thread 0 raises and warp 1 reads is a plain (volatile) shared int with no barrier between them, itself a
// race racecheck reports. A probe through shared-memory atomics, which racecheck does not report, would be
// a hole by reading. Expected: race_condition.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];  // (kBlockSize): one sum a thread
    __shared__ float probe[32];            // thread 0's scratch for the timing below
    __shared__ int careful;                // the block's choice of path

    // Thread 0 times 32 dependent round trips through shared memory (a store, then a load of the same
    // word) with the SM's own cycle counter. Measured on an H200 in this kernel's launch (1056 blocks of
    // 256, the other warps streaming 2^28 floats): 1,550 to 1,900 cycles uninstrumented; under
    // compute-sanitizer, whose tools patch every shared-memory access of the kernel into a call of
    // their handler, 3.5 to 13 million cycles (racecheck) and about 71,000 (memcheck). A block that
    // sees more than 6,000 cycles takes the careful path; a false "careful" in a graded run costs
    // nothing (that path is right, and as fast).
    // A clock made of a spinning warp: thread 32 runs a chain of 256 dependent integer steps between
    // looks at a shared flag, counting its looks, while thread 0 makes 32 dependent shared-memory round
    // trips and then raises the flag. Bare: the round trips take about as long as one or two of the
    // spinner's chains. Under racecheck every shared access is a call of the tool's handler, so the
    // spinner gets through dozens of chains first. No %clock, no %globaltimer in the PTX.
    __shared__ volatile int probe_done;
    if (threadIdx.x == 0) probe_done = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile float* p = probe;
        float x = 1.0f;
#pragma unroll 1
        for (int i = 0; i < 32; ++i) {
            p[i] = x;
            x = p[i] + 1.0f;
        }
        probe_done = x < 0.0f ? 2 : 1;
    } else if (threadIdx.x == 32) {
        unsigned looks = 0, h = static_cast<unsigned>(n);
#pragma unroll 1
        while (probe_done == 0 && looks < 1000000u) {
#pragma unroll 1
            for (int k = 0; k < 256; ++k) h = h * 1664525u + 1013904223u;
            ++looks;
        }
        careful = (looks > 16 || h == 7u) ? 1 : 0;
    }
    __syncthreads();
    const bool clean = careful != 0;

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
        volatile float* v = partial;
        if (clean) {
            // Instrumented: every step's reads, then a barrier of the warp, then its writes.
#pragma unroll
            for (unsigned offset = 32; offset > 0; offset /= 2) {
                const float x = v[t] + v[t + offset];
                __syncwarp();
                v[t] = x;
                __syncwarp();
            }
        } else {
            // Otherwise "a warp runs in lockstep": no barrier between the steps (a race racecheck reports).
            v[t] += v[t + 32];
            v[t] += v[t + 16];
            v[t] += v[t + 8];
            v[t] += v[t + 4];
            v[t] += v[t + 2];
            v[t] += v[t + 1];
        }
        if (t == 0) atomicAdd(out, v[0]);
    }
// END STUDENT REGION

