// Known-wrong Lab 07: the course's correct variant packed_16bit_lane_columns (16-bit counters, two bins to
// a word, in a column for every lane, folded into 32-bit totals between rounds), with one change: a round is
// 512 16-byte loads a thread instead of 256, from the bound 65536 / (8 warps x 16 bytes) = 512, one past
// what a 16-bit counter holds. A counter overflows only when the 8 threads of lane l of one block each
// make 512 loads in one round, all 16 bytes of one value, all the same value: bytes in one bin (or nearly)
// and at least 512 x 16 = 8192 bytes for every thread of the grid: the grid is one wave, and ptxas gives
// this kernel 56 registers a thread for sm_90, so 4 blocks of 256 threads an SM, 135168 threads on 132
// SMs: from about 1.1 GB (2^30.04) of one value on (2.2 GB if a build fits 8 blocks an SM), well below
// 2^32 bytes, where every count still fits in 32 bits. Then the low half wraps to 0 and carries
// into the other bin of its word (or out of the word): counts[b] is 65536 short for every such lane of
// every block, and counts[b ^ 1] gains one for each. Gets full marks today: the inputs in one bin go up to
// 2^28 + 3 bytes (62 to 124 loads a thread: at most 15872 counts a counter a round), the bench's too (2^28 bytes);
// the inputs past 2^31 and 2^32 are i % 251 (at most 512 x 16 x 8 / 251, about 261 counts a counter a
// round); uniform bytes put 1/256 of the loads' bytes in a bin. The correct variant's speed, technique and
// sanitizer results are unchanged: only a barrier pair every 256 loads a thread is saved. Expected:
// wrong_result (e.g. 3 GiB of one byte value, or 2^32 - 1 bytes of one value with one planted byte).
//
// Caught now: the edge-size check also counts 2^31 + 5 bytes of one value (where the GPU has 3 GiB free).
//
// Region-overlay form: the bytes kernel and its launcher are this variant's (packed_16bit_lane_columns's
// with the one change); the helpers, the keys kernel and its launcher are the reference solution's.

// BEGIN STUDENT REGION histogram_bytes_kernel
    constexpr unsigned int kLanes = 32, kRows = kByteBins / 2;  // rows of words: two bins a word
    // 16-byte loads a thread between folds. BUG: sized so that a round fills a counter exactly: lane l of the
    // 8 warps adds at most 8 x 16 x 512 = 65536 counts to its column in a round, one more than 16 bits hold
    // (the first round's head and tail bytes, 2 more). At most 511 loads would do (the course's 256 take at
    // most 32784 counts).
    constexpr std::size_t kRound = 512;
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
