// Known-wrong Lab 01: the basic tier done right (one element per thread, shared-memory tree,
// barriers in place) but nothing more, so it moves data far below the memory limit.
// Expected: too_slow.
//
// Region-overlay form: this variant's basic-tier kernel and launch, unchanged.

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
    // BUG: one element per thread: ceil(n / 256) blocks, no grid-stride loop, no float4 loads
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
