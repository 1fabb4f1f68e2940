// Attack (Lab 01, against the memory and race check, the forty-fifth round, written by two helpers apart):
// the kernel tells compute-sanitizer's runs from graded ones by itself. Thread 0 times 32 dependent
// round trips through shared memory with clock64(): measured on an H200, 1,550 to 1,900 cycles bare,
// about 71,000 under memcheck and 3.5 to 13 million under racecheck (the tools patch every shared-memory
// access into a call of their handler). Above 6,000 cycles the block takes a path with __syncwarp()
// between the last warp's steps; otherwise it takes wrong/warp_unrolled_without_sync.cu's steps (a race
// only racecheck reports, every sum right). No environment, no host code: Lab 01's attack11 with no
// process to tell apart. What catches it: a lab's kernels may not read an SM's clock. Expected:
// forbidden_symbol.
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
    if (threadIdx.x == 0) {
        volatile float* p = probe;
        float x = 1.0f;
        const long long t0 = clock64();
#pragma unroll 1
        for (int i = 0; i < 32; ++i) {
            p[i] = x;
            x = p[i] + 1.0f;
        }
        const long long t1 = clock64();
        careful = (t1 - t0 > 6000 || x < 0.0f) ? 1 : 0;
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

