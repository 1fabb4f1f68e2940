// Known-wrong Lab 02: the grid is n / kBlockSize blocks, rounded down, so the elements past the
// last full block are never looked at (and for n < kBlockSize no block runs at all).
// Expected: wrong_result, with the tail hint.
//
// Region-overlay form: the basic tier (one element per thread) in the kernel and launch regions,
// as this variant always was; atomic_max_float is the reference solution's (the same code).

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
    const unsigned blocks = static_cast<unsigned>(n / kBlockSize);  // BUG: rounds down
    if (blocks > 0) block_max_kernel<<<blocks, kBlockSize>>>(in, out, n);
// END STUDENT REGION
