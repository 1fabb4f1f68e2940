// Attack (Lab 07, the forty-sixth round, against the inputs of the keys): histogram_keys counts into 16-bit
// counters, two bins a 32-bit shared word (8 KiB for 4093 bins), one copy of the bins a block, a grid of at
// most 1024 blocks. A block whose share of the keys puts 65,536 or more into one bin carries into the next
// bin's half or loses the count: wrong counts on valid inputs such as 2^27 equal keys. Got full marks by
// reading: the keys were counted up to 2^24 + 5 (at most 16,385 keys a block with 1024 blocks), and past
// 2^31 only as i % 4090 over 4093 bins (about 1,000 a bin a block); the keys are never timed. Caught now by
// 2^31 + 5 keys of one value (as the bytes already were). Expected: wrong_result.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION histogram_keys_kernel
    // Two bins a word: bin b is the (b % 2)-th 16-bit half of word b / 2. One copy of the bins a block.
    extern __shared__ unsigned int key_words[];  // (bins + 1) / 2 words
    const unsigned int words = (bins + 1) / 2;
    for (unsigned int i = threadIdx.x; i < words; i += blockDim.x) key_words[i] = 0;
    __syncthreads();  // every bin is zeroed before any thread counts into it

    unsigned int run_bin = 0, run_len = 0;
    const auto flush = [&]() {
        if (run_len != 0) atomicAdd(&key_words[run_bin >> 1], run_len << (16u * (run_bin & 1u)));
    };
    const auto add = [&](unsigned int b) {
        if (b != run_bin) {
            flush();
            run_bin = b;
            run_len = 0;
        }
        ++run_len;
    };
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t to_boundary = ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (tid < head) add(keys[tid]);
    const uint4* keys4 = reinterpret_cast<const uint4*>(keys + head);
    const std::size_t n4 = (n - head) / 4;
    for (std::size_t i = tid; i < n4; i += threads) {
        const uint4 v = keys4[i];
        add(v.x);
        add(v.y);
        add(v.z);
        add(v.w);
    }
    const std::size_t tail = head + n4 * 4;
    if (tail + tid < n) add(keys[tail + tid]);
    flush();
    __syncthreads();  // every warp's counts are in before the merge reads them

    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) {
        const unsigned int sum = (key_words[b >> 1] >> (16u * (b & 1u))) & 0xffffu;
        if (sum != 0) atomicAdd(&counts[b], sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_keys
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t smem = std::size_t((bins + 1) / 2) * sizeof(unsigned int);
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, 1024));
        histogram_keys_kernel<<<grid, kBlockSize, smem>>>(keys, n, bins, counts);
    }
// END STUDENT REGION

