// Known-wrong Lab 01: fast and correct, but no shared memory at all (registers, warp shuffles and
// one atomicAdd per warp). The lab is about shared memory. Expected: technique_not_used.
//
// Region-overlay form: this variant's kernel and launch (at most 1056 blocks), unchanged.

// BEGIN STUDENT REGION block_sum_kernel
    // BUG: no __shared__ memory: the graded technique is not used
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) atomicAdd(out, sum);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_sum_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
// END STUDENT REGION
