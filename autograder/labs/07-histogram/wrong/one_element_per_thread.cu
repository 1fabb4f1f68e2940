// Known-wrong Lab 07: privatisation done right (a block's bins in shared memory, zeroed, a barrier, shared
// atomics, a barrier, one global atomic a nonzero bin) but one element a thread: n / 256 blocks, each
// zeroing and merging 256 bins for 256 elements, so as many global atomics reach L2 as elements on uniform
// bytes, and on bytes in one bin each block's 256 atomics queue for one shared word. Expected: too_slow.
//
// Region-overlay form: both kernels and both launchers are this variant's; the helpers are the reference
// solution's (unused here).

// BEGIN STUDENT REGION histogram_bytes_kernel
    __shared__ unsigned int block_counts[kByteBins];
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x) block_counts[b] = 0;
    __syncthreads();
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < n) atomicAdd(&block_counts[data[i]], 1u);
    __syncthreads();
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x)
        if (block_counts[b] != 0) atomicAdd(&counts[b], block_counts[b]);
// END STUDENT REGION

// BEGIN STUDENT REGION histogram_keys_kernel
    __shared__ unsigned int block_counts[kMaxKeyBins];
    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) block_counts[b] = 0;
    __syncthreads();
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < n) atomicAdd(&block_counts[keys[i]], 1u);
    __syncthreads();
    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x)
        if (block_counts[b] != 0) atomicAdd(&counts[b], block_counts[b]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));
    // BUG (speed): one element a thread, no grid-stride loop, no wide loads
    if (n > 0) histogram_bytes_kernel<<<static_cast<unsigned int>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(data, n, counts);
// END STUDENT REGION

// BEGIN STUDENT REGION launch_keys
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) histogram_keys_kernel<<<static_cast<unsigned int>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(keys, n, bins, counts);
// END STUDENT REGION
