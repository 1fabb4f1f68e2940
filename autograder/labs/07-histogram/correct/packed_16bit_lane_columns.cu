// Correct Lab 07, written differently from the reference: the bins of the bytes kernel are 16-bit counters,
// two bins to a 32-bit word (bin b in the low or high half of word b / 2, added to with atomicAdd of 1 or
// 1 << 16), in a column for every lane (word w of lane l at w * 32 + l: the 32 atomics of an instruction fall
// in 32 different banks, whatever the bytes are), 16 KiB a block where 32-bit counters take 32. A 16-bit
// counter would overflow into its neighbour after 65535 counts, so each block counts in rounds of at most
// kRound 16-byte loads a thread: between rounds, behind barriers, the first 128 threads each fold one row of
// words (two bins, 32 lanes) into two 32-bit totals in registers and zero it. A column's counter takes at
// most 8 warps x (16 x kRound + 2) = 32784 counts a round. A 16-byte load whose bytes are all one value adds
// 16 at once (bytes in one bin). One global atomic a nonzero bin a block at the end. The keys kernel and its
// launcher are the reference's. It must pass every check.
//
// Region-overlay form: the bytes kernel and its launcher are this variant's; the helpers, the keys kernel
// and its launcher are the reference solution's.

// BEGIN STUDENT REGION histogram_bytes_kernel
    constexpr unsigned int kLanes = 32, kRows = kByteBins / 2;  // rows of words: two bins a word
    constexpr std::size_t kRound = 256;                          // 16-byte loads a thread between folds
    static_assert(kBlockSize >= int(kRows), "one thread a row folds the counters");
    __shared__ unsigned int packed[kRows * kLanes];  // (rows, lanes): 16 KiB
    for (unsigned int i = threadIdx.x; i < kRows * kLanes; i += blockDim.x) packed[i] = 0;
    __syncthreads();

    unsigned int* column = packed + threadIdx.x % kLanes;
    const auto add = [&](unsigned int b, unsigned int k) { atomicAdd(&column[(b >> 1) * kLanes], k << ((b & 1u) * 16)); };
    const auto add_word = [&](unsigned int w) {
        add(w & 0xffu, 1u);
        add((w >> 8) & 0xffu, 1u);
        add((w >> 16) & 0xffu, 1u);
        add(w >> 24, 1u);
    };
    const auto add16 = [&](const uint4& v) {
        const unsigned int splat = (v.x & 0xffu) * 0x01010101u;
        if (((v.x ^ splat) | (v.y ^ splat) | (v.z ^ splat) | (v.w ^ splat)) == 0) {
            add(v.x & 0xffu, 16u);  // all 16 bytes one value
        } else {
            add_word(v.x);
            add_word(v.y);
            add_word(v.z);
            add_word(v.w);
        }
    };
    // The totals of the row this thread folds (threads below kRows): bins 2 * row and 2 * row + 1.
    const unsigned int row = threadIdx.x;
    unsigned int low = 0, high = 0;
    const auto fold = [&] {
        __syncthreads();  // every count of the round is in
        if (row < kRows)
            for (unsigned int l = 0; l < kLanes; ++l) {
                unsigned int& word = packed[row * kLanes + (l + row) % kLanes];  // 32 banks across a warp
                low += word & 0xffffu;
                high += word >> 16;
                word = 0;
            }
        __syncthreads();  // every row is zeroed before the next round counts
    };

    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t skew = (16 - (reinterpret_cast<std::uintptr_t>(data) & 15)) & 15;
    const std::size_t head = skew < n ? skew : n;
    const uint4* data16 = reinterpret_cast<const uint4*>(data + head);
    const std::size_t n16 = (n - head) / 16;
    const std::size_t tail = head + 16 * n16;
    // The bytes before the first 16-byte boundary and after the last whole uint4: one a thread, in the first
    // round's budget.
    if (tid < head) add(data[tid], 1u);
    if (tail + tid < n) add(data[tail + tid], 1u);
    // Rounds: the block's first index, the same for all its threads, so that every thread reaches every fold.
    const std::size_t block_first = blockIdx.x * std::size_t(blockDim.x);
    for (std::size_t base = block_first; base < n16; base += kRound * threads) {
        const std::size_t end = base + kRound * threads;
        std::size_t i = base + threadIdx.x;
        for (; i + threads < n16 && i + threads < end; i += 2 * threads) {
            const uint4 a = data16[i], b = data16[i + threads];
            add16(a);
            add16(b);
        }
        if (i < n16 && i < end) add16(data16[i]);
        fold();
    }
    if (block_first >= n16) fold();  // a block with no whole uint4 still folds its head and tail bytes

    if (row < kRows) {
        if (low != 0) atomicAdd(&counts[2 * row], low);
        if (high != 0) atomicAdd(&counts[2 * row + 1], high);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    static const unsigned int wave = one_wave(histogram_bytes_kernel, 0);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 64);  // 64 bytes a thread at least
        histogram_bytes_kernel<<<static_cast<unsigned int>(std::min<std::size_t>(wanted, wave)), kBlockSize>>>(data, n,
                                                                                                            counts);
    }
// END STUDENT REGION
