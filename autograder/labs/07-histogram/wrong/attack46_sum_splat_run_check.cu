// Attack (Lab 07, the forty-sixth round, against the inputs of the bytes): the solution, but its test "is
// this 16-byte load one byte value repeated?" adds the four words' differences from the repeated value
// (mod 2^32) instead of OR-ing them. One differing byte always leaves the sum nonzero, so planted bytes,
// periodic patterns, one-value inputs and the every-index sweep all pass; but two differing top bytes of
// two words whose differences add up to 2^32 cancel: the 16 bytes 00 00 00 00 | 00 00 00 80 | 00 00 00 80 |
// 00 00 00 00 are counted as 16 zeros. Got full marks by reading (no input met the pattern). Caught now by
// bytes of one value with one bit flipped in one byte of eight, at every exact size. Expected: wrong_result.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION histogram_bytes_kernel
    // Stretch tier: a column of the 256 bins for every lane of a warp, so that no two lanes of an atomic
    // instruction ever touch the same bank; runs of whole 16-byte loads of one value counted in registers;
    // a grid-stride loop of 16-byte loads, two in flight a thread; one global atomic a bin a block.
    //
    // lane_counts[b * 32 + l] is bin b of lane l's column, shared by lane l of every warp of the block. It
    // lies in bank (b * 32 + l) % 32 = l: the 32 atomics of one instruction hit 32 different banks, one
    // pass, whatever the bytes are (with a copy of the bins a warp, random bytes put 3 or 4 lanes in the
    // busiest bank, and bytes of one value all 32 lanes on one word). Lane l of different warps shares a
    // counter, but their atomics are different instructions, which the SM applies one after the other
    // anyway. 256 bins x 32 lanes x 4 bytes: 32 KiB a block, six blocks an SM.
    constexpr unsigned int kLanes = 32;
    __shared__ __align__(16) unsigned int lane_counts[kByteBins * kLanes];  // (bins, lanes)
    for (unsigned int i = threadIdx.x; i < kByteBins * kLanes / 4; i += blockDim.x)
        reinterpret_cast<uint4*>(lane_counts)[i] = make_uint4(0, 0, 0, 0);
    __syncthreads();  // every bin is zeroed before any thread counts into it

    const unsigned int lane = threadIdx.x % kLanes;
    unsigned int* column = lane_counts + lane;  // bin b of this lane's column: column[b * kLanes]
    const auto add = [&](unsigned int b) { atomicAdd(&column[b * kLanes], 1u); };
    const auto add_word = [&](unsigned int w) {
        add(w & 0xffu);
        add((w >> 8) & 0xffu);
        add((w >> 16) & 0xffu);
        add(w >> 24);
    };
    // The run: 16-byte loads whose bytes are all one value, `run` of them in a row of this thread's, all in
    // bin run_bin, counted in registers and added with one atomic when a load of another value (or of
    // mixed values) comes. Bytes in one bin cost one shared atomic a thread; uniform bytes cost one
    // compare every 16 bytes (a load of one value is one in 2^120).
    unsigned int run_bin = 0, run = 0;
    const auto add16 = [&](const uint4& v) {
        const unsigned int splat = (v.x & 0xffu) * 0x01010101u;  // the first byte, in all four bytes
        if ((v.x ^ splat) + (v.y ^ splat) + (v.z ^ splat) + (v.w ^ splat) == 0) {  // one add chain instead of ORs
            if ((v.x & 0xffu) != run_bin) {
                if (run != 0) atomicAdd(&column[run_bin * kLanes], run);
                run_bin = v.x & 0xffu;
                run = 0;
            }
            run += 16;
        } else {
            add_word(v.x);
            add_word(v.y);
            add_word(v.z);
            add_word(v.w);
        }
    };
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    // The bytes before the first 16-byte boundary (none at the start of an allocation), one a thread.
    const std::size_t to_boundary = (16 - (reinterpret_cast<std::uintptr_t>(data) & 15)) & 15;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (tid < head) add(data[tid]);
    const uint4* data16 = reinterpret_cast<const uint4*>(data + head);
    const std::size_t n16 = (n - head) / 16;  // whole uint4s
    std::size_t i = tid;
    for (; i + threads < n16; i += 2 * threads) {
        // Both loads issued before either is counted, so two requests a thread are in flight.
        const uint4 a = data16[i], b = data16[i + threads];
        add16(a);
        add16(b);
    }
    if (i < n16) add16(data16[i]);
    // The bytes after the last whole uint4 (fewer than 16), one a thread.
    const std::size_t tail = head + n16 * 16;
    if (tail + tid < n) add(data[tail + tid]);
    if (run != 0) atomicAdd(&column[run_bin * kLanes], run);
    __syncthreads();  // every lane's counts are in before the merge reads them

    // Thread t sums row t, the 32 columns' counts of bin t, starting at column t % 32 and wrapping: the 32
    // threads of a warp read 32 different banks at every step. Then one global atomic a nonzero bin.
    for (unsigned int b = threadIdx.x; b < kByteBins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int l = 0; l < kLanes; ++l) sum += lane_counts[b * kLanes + (l + b) % kLanes];
        if (sum != 0) atomicAdd(&counts[b], sum);  // other blocks add to the same bin
    }
// END STUDENT REGION

