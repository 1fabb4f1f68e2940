// Known-wrong Lab 02: fast and correct, but no shared memory at all (a grid-stride loop in
// registers, warp shuffles, and one atomic maximum per warp). The lab is about shared memory.
// Expected: technique_not_used.
//
// Region-overlay form: this variant's kernel and launch (at most 1056 blocks), unchanged;
// atomic_max_float is the reference solution's (the same code).

// BEGIN STUDENT REGION block_max_kernel
    // BUG: no __shared__ memory: the graded technique is not used
    float m = -INFINITY;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        m = max_or_nan(m, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (threadIdx.x % 32 == 0) atomic_max_float(out, m);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_max_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
// END STUDENT REGION
