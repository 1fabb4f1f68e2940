// Known-wrong Lab 02: Lab 01 ported to max by changing only the operator. Threads past n pad with
// 0 and *out starts at 0 (cudaMemsetAsync), but 0 is not the identity of max: an input whose
// elements are all negative comes out as 0. Expected: wrong_result, with the identity hint.
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged; atomic_max_float is
// the reference solution's (the same code). The skeleton's set_identity_kernel is present but, as
// in the original (which did not define it), never launched.

// BEGIN STUDENT REGION block_max_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;  // BUG: 0 is no identity for max
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));  // BUG: starts the maximum at 0.0
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
