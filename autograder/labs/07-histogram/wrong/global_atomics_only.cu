// Known-wrong Lab 07: correct, and faster than the naive kernel on uniform bytes, but no shared memory at
// all: a grid of one wave, a grid-stride loop of 16-byte loads, and a global atomicAdd for every element.
// The lab is about counting in shared memory. Expected: technique_not_used.
//
// Region-overlay form: both kernels and the keys launcher (no dynamic shared memory) are this variant's;
// the helpers and the bytes launcher are the reference solution's.

// BEGIN STUDENT REGION histogram_bytes_kernel
    // BUG: no __shared__ memory: every element is a global atomic
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t n16 = n / 16;
    const uint4* data16 = reinterpret_cast<const uint4*>(data);
    for (std::size_t i = tid; i < n16; i += threads) {
        const uint4 v = data16[i];
        const unsigned int words[4] = {v.x, v.y, v.z, v.w};
        for (int j = 0; j < 16; ++j) atomicAdd(&counts[(words[j / 4] >> (8 * (j % 4))) & 0xffu], 1u);
    }
    if (n16 * 16 + tid < n) atomicAdd(&counts[data[n16 * 16 + tid]], 1u);
// END STUDENT REGION

// BEGIN STUDENT REGION histogram_keys_kernel
    // BUG: no __shared__ memory: every key is a global atomic
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        atomicAdd(&counts[keys[i]], 1u);
// END STUDENT REGION

// BEGIN STUDENT REGION launch_keys
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, 0)));
        histogram_keys_kernel<<<grid, kBlockSize>>>(keys, n, bins, counts);
    }
// END STUDENT REGION
