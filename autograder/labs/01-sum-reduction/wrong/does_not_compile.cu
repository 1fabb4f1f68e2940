// Known-wrong Lab 01: a typo the compiler rejects (an undeclared name). The runner builds it like
// student work and must report does_not_compile with the compiler's first error.
// Expected: does_not_compile.
//
// Region-overlay form: the error sits inside the kernel region, so the compiler's message points
// at this file. The launch region is this variant's own (one element per thread).

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, partal[0]);  // BUG: misspelt
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
