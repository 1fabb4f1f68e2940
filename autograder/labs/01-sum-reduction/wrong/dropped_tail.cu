// Known-wrong Lab 01: the grid is n / kBlockSize blocks, rounded down, so the elements past the
// last full block are never added. Expected: wrong_result, with the tail hint.
//
// Region-overlay form: the basic tier (one element per thread) in both regions, as this variant
// always was; the tail hint depends on that grid.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    const unsigned blocks = static_cast<unsigned>(n / kBlockSize);  // BUG: rounds down
    if (blocks > 0) block_sum_kernel<<<blocks, kBlockSize>>>(in, out, n);
// END STUDENT REGION
