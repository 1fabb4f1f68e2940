// Known-wrong Lab 02: the tree combines with fmaxf, which returns the other operand when one is
// NaN. Right on every input without NaN, but the lab's policy says any NaN makes the result NaN.
// Expected: wrong_result (the NaN-policy check).
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged; atomic_max_float is
// the reference solution's (the same code). The skeleton's max_or_nan is present but unused, as
// the original did not define it.

// BEGIN STUDENT REGION block_max_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : -INFINITY;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + stride]);  // BUG: drops NaN
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
