// Attack (Lab 02, against the timed counters' floor): attack2_device_counter_switch.cu with the token
// made to count. The kernel counts, in a function-local static of device memory, its launches at n >= 2^28
// in this process, and does the reference block reduction for the first 17 of them (the profile workload's
// gate and batch of 8, or a graded run's gate and its 2 warm-up batches of 8, none of them sampled); from
// then on each warp combines with shuffles and calls atomic_max_float itself, and one lane a block stores
// its maximum into the __shared__ array and loads it back (volatile) before its atomic. A timed call then
// shows one shared-memory load and one store wavefront a block, far above the floor of a quarter of each a
// call for every SM, while no warp's maximum ever meets another's in shared memory. Nsight Compute counts
// only honest launches. Both paths are right on every input, and so is a launch whose blocks disagree.
// What should catch it: a floor in proportion to the warps launched, or global atomics counted in the
// timed calls (one a warp, where the technique needs one a block). Expected: technique_not_used.
// Caught on an H100 by the floor a warp: 0.14 store wavefronts for each warp launched but one a block,
// where 0.75 are needed (it passes the floors a call and a block, and Nsight Compute counts honest calls).

// BEGIN STUDENT REGION block_max_kernel
    static unsigned launches = 0;  // device memory: launches of this kernel at n >= 2^28 in this process so far
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_max[kWarps];
    const bool per_warp_atomics = n >= (std::size_t(1) << 28) && *static_cast<volatile unsigned*>(&launches) >= 17;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const auto max4 = [](float4 v) { return max_or_nan(max_or_nan(v.x, v.y), max_or_nan(v.z, v.w)); };
    float m = -INFINITY;
    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {
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
    for (std::size_t i = scalar_from + tid; i < n; i += threads) m = max_or_nan(m, in[i]);
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (n >= (std::size_t(1) << 28) && blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(&launches, 1u);
    if (per_warp_atomics) {  // BUG (technique): after the profiled calls, the warps never meet
        if (lane == 0) {
            if (warp == 0) {  // the token: one shared store and one shared load a block
                volatile float* token = warp_max;
                token[0] = m;
                m = token[0];
            }
            atomic_max_float(out, m);
        }
        return;
    }
    if (lane == 0) warp_max[warp] = m;
    __syncthreads();
    if (warp == 0) {
        m = lane < kWarps ? warp_max[lane] : -INFINITY;
        for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
        if (lane == 0) atomic_max_float(out, m);
    }
// END STUDENT REGION
