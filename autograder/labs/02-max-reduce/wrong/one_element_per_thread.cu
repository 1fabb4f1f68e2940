// Known-wrong Lab 02: the basic tier done right (one element per thread, -INFINITY padding, a
// shared-memory tree with max_or_nan, barriers in place, a sound atomic maximum) but nothing more,
// so it moves data far below the memory limit. Expected: too_slow.
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged; atomic_max_float is
// the reference solution's (the same code).

// BEGIN STUDENT REGION block_max_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : -INFINITY;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    // BUG: one element per thread: ceil(n / 256) blocks, no grid-stride loop, no float4 loads
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
