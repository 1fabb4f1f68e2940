// Known-wrong Lab 01: fast and correct, but the warps of a block never combine through shared memory:
// each warp sums with shuffles and adds its sum to the output with its own atomicAdd. A token
// __shared__ array takes one store a warp, so the kernel has shared memory and its trace looks right
// (the in-program technique check passes). Nsight Compute's counts show one global atomic a warp, where
// a block reduction makes at most one for every two warps.
// Expected: technique_not_used (the shared-memory-use check; skipped where ncu cannot read the counters).
//
// Region-overlay form: this variant's kernel and launch (at most 1056 blocks).

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float seen[kBlockSize / 32];  // BUG (technique): a token; the sums never meet in it
    float sum = 0.0f;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        sum += in[i];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x % 32 == 0) {
        seen[threadIdx.x / 32] = sum;
        atomicAdd(out, sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_sum_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
// END STUDENT REGION
