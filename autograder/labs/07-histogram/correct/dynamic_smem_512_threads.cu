// Correct Lab 07, written differently from the reference: blocks of 512 threads (not kBlockSize), as many
// a block as the occupancy API says fit on an SM; the warps' copies of the bins in dynamic shared memory
// (`extern __shared__`, sized at the launch: 16 copies of 256 bins for the bytes); 16-byte loads, as the
// third tier asks, four in flight a thread where the reference has two; and the current run of equal values
// kept in two registers by a helper function, not a struct. The keys kernel loads uint2 (two keys) and keeps as many
// copies of the bins as 40 KiB hold. It must pass every check.

// BEGIN STUDENT REGION helpers
inline constexpr unsigned int kThreads = 512;                // threads a block, both kernels
inline constexpr unsigned int kCopies = kThreads / 32;       // the bytes kernel: a copy of the bins a warp
inline constexpr unsigned int kKeyBudget = 40 * 1024;        // the keys kernel's copies, in bytes at most
inline constexpr std::size_t kElementsPerThread = 32;        // at least, before a block merges

// Copies of @p bins bins that fit in kKeyBudget: at least one, at most one a warp.
__host__ __device__ constexpr unsigned int copies_for(unsigned int bins) {
    const unsigned int fit = kKeyBudget / (bins * 4u);
    return fit < 1u ? 1u : fit > kCopies ? kCopies : fit;
}

// Counts @p value into the run (bin, length) of this thread: a new value adds the finished run to hist.
__device__ __forceinline__ void count_value(unsigned int* hist, unsigned int value, unsigned int& bin,
                                            unsigned int& length) {
    if (value == bin) {
        ++length;
        return;
    }
    if (length > 0) atomicAdd(hist + bin, length);
    bin = value;
    length = 1;
}

// One wave of blocks of kThreads threads with @p smem bytes of dynamic shared memory.
template <class Kernel>
unsigned int blocks_in_one_wave(Kernel kernel, std::size_t smem) {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, smem));
    return static_cast<unsigned int>((per_sm > 0 ? per_sm : 1) * sms);
}
// END STUDENT REGION

// BEGIN STUDENT REGION histogram_bytes_kernel
    extern __shared__ unsigned int copies[];  // (kCopies, kByteBins)
    for (unsigned int i = threadIdx.x; i < kCopies * kByteBins; i += blockDim.x) copies[i] = 0;
    __syncthreads();

    unsigned int* hist = copies + (threadIdx.x / 32) * kByteBins;
    unsigned int bin = 0, length = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const auto count_word = [&](unsigned int w) {
        for (int k = 0; k < 4; ++k) count_value(hist, (w >> (8 * k)) & 0xffu, bin, length);
    };
    const auto count_16 = [&](const uint4& v) {
        count_word(v.x);
        count_word(v.y);
        count_word(v.z);
        count_word(v.w);
    };
    // Whole 16-byte pieces from the first 16-byte boundary; the bytes before it and after the last piece
    // (fewer than 16 each, so one a thread of the first block), apart.
    const std::size_t skew = (16 - (reinterpret_cast<std::uintptr_t>(data) & 15)) & 15;
    const std::size_t head = skew < n ? skew : n;
    if (first < head) count_value(hist, data[first], bin, length);
    const uint4* pieces = reinterpret_cast<const uint4*>(data + head);
    const std::size_t n_pieces = (n - head) / 16;
    std::size_t i = first;
    for (; i + 3 * stride < n_pieces; i += 4 * stride) {
        const uint4 a = pieces[i], b = pieces[i + stride], c = pieces[i + 2 * stride], d = pieces[i + 3 * stride];
        count_16(a);
        count_16(b);
        count_16(c);
        count_16(d);
    }
    for (; i < n_pieces; i += stride) count_16(pieces[i]);
    const std::size_t rest = head + 16 * n_pieces;
    if (rest + first < n) count_value(hist, data[rest + first], bin, length);
    if (length > 0) atomicAdd(hist + bin, length);
    __syncthreads();

    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int c = 0; c < kCopies; ++c) sum += copies[c * kByteBins + b];
        if (sum > 0) atomicAdd(counts + b, sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION histogram_keys_kernel
    extern __shared__ unsigned int copies[];  // (copies_for(bins), bins)
    const unsigned int n_copies = copies_for(bins);
    for (unsigned int i = threadIdx.x; i < n_copies * bins; i += blockDim.x) copies[i] = 0;
    __syncthreads();

    unsigned int* hist = copies + (threadIdx.x / 32) % n_copies * bins;
    unsigned int bin = 0, length = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t skew = ((8 - (reinterpret_cast<std::uintptr_t>(keys) & 7)) & 7) / 4;
    const std::size_t head = skew < n ? skew : n;
    if (first < head) count_value(hist, keys[first], bin, length);
    const uint2* pairs = reinterpret_cast<const uint2*>(keys + head);
    const std::size_t n_pairs = (n - head) / 2;
    for (std::size_t i = first; i < n_pairs; i += stride) {
        const uint2 v = pairs[i];
        count_value(hist, v.x, bin, length);
        count_value(hist, v.y, bin, length);
    }
    if (first == 0 && head + 2 * n_pairs < n) count_value(hist, keys[n - 1], bin, length);
    if (length > 0) atomicAdd(hist + bin, length);
    __syncthreads();

    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int c = 0; c < n_copies; ++c) sum += copies[c * bins + b];
        if (sum > 0) atomicAdd(counts + b, sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    constexpr std::size_t smem = std::size_t(kCopies) * kByteBins * sizeof(unsigned int);  // 16 KiB
    static const unsigned int wave = blocks_in_one_wave(histogram_bytes_kernel, smem);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kThreads) * kElementsPerThread);
        histogram_bytes_kernel<<<static_cast<unsigned int>(std::min<std::size_t>(wanted, wave)), kThreads, smem>>>(
            data, n, counts);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_keys
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t smem = std::size_t(copies_for(bins)) * bins * sizeof(unsigned int);  // at most 40 KiB
        const std::size_t wanted = course::ceil_div(n, std::size_t(kThreads) * kElementsPerThread);
        const unsigned int grid =
            static_cast<unsigned int>(std::min<std::size_t>(wanted, blocks_in_one_wave(histogram_keys_kernel, smem)));
        histogram_keys_kernel<<<grid, kThreads, smem>>>(keys, n, bins, counts);
    }
// END STUDENT REGION
