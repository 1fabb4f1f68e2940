// Known-wrong Lab 01: tries to wait for all blocks inside one launch (a spin on a global counter)
// before the last one finishes the sum. Blocks that are not yet resident can never arrive, so the
// resident ones spin forever: there is no barrier across blocks. Expected: timeout.
//
// Region-overlay form. The original kept the counter in a namespace-scope `__device__ unsigned
// blocks_done` that the launcher zeroed with cudaMemcpyToSymbol before every launch; this lab has
// no namespace-scope region, so the counter is now a function-scope static of the kernel (a
// __device__ variable, zero when the module loads) and the kernel zeroes it itself: the last block
// to leave the spin (counted in a second static) resets both counters, which is safe because every
// block has left the spin by then. Each launch therefore starts from 0, as before; the spin, the
// grid and the deadlock (grids larger than the resident blocks, from n = 2^20 + 1) are unchanged.
// The launcher no longer calls cudaMemcpyToSymbol.

// BEGIN STUDENT REGION block_sum_kernel
    static unsigned blocks_done;    // blocks that have added their partial (implicitly __device__)
    static unsigned blocks_passed;  // blocks that have left the spin below
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(out, partial[0]);
        atomicAdd(&blocks_done, 1u);
        // BUG: waits for blocks that may not be running yet
        while (atomicAdd(&blocks_done, 0u) < gridDim.x) {
        }
        // Only reached when every block arrived: the last block out readies the counters for the next launch.
        if (atomicAdd(&blocks_passed, 1u) == gridDim.x - 1) {
            atomicExch(&blocks_done, 0u);
            atomicExch(&blocks_passed, 0u);
        }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
