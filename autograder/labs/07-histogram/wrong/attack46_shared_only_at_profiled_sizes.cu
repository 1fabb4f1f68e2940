// Attack (Lab 07, the forty-sixth round): both kernels count with one global atomic an
// element (no shared memory: the first tier) whenever n < 2^24, and as the reference does from 2^24 on.
// Every check that looks at HOW the counting is done sees only n >= 2^24:
//  - the technique check (checks.cpp "histogram kernels count in shared memory", kTechniqueBytesN and
//    kTechniqueKeysN = 2^24 + 3) and the Nsight Compute rules (the profile workload: those same calls and
//    the speed checks' first calls at 2^28);
//  - the timed counters (7 shared wavefronts a block) and all four speed checks: histogram_bytes at 2^28;
//  - keys are never timed at all.
// Everything below 2^24 (all the exact sizes but 2^24 + 5, the 16 random and 3 hidden sizes, every key
// size below it, the every-index sweep at 2^14 + 3) is counted right by global atomics, so every
// correctness check passes; compute-sanitizer has nothing to report.
// grading.md promises "a real tile used only at some sizes fails it as technique_not_used"; here the
// keys kernel uses shared memory for one configuration only of the ~190 it is graded on.
// Deserves: technique_not_used.
// 
// A known hole by reading (the forty-sixth round), not yet graded on a GPU: its test expects the class
// it deserves. Expected: technique_not_used.
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
    // Below 2^24 bytes: straight into the global counts, one atomic a byte (the same branch for every
    // thread of the grid: n is uniform).
    if (n < (std::size_t(1) << 24)) {
        const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
        for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
            atomicAdd(&counts[data[i]], 1u);
        return;
    }
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
        if (((v.x ^ splat) | (v.y ^ splat) | (v.z ^ splat) | (v.w ^ splat)) == 0) {
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

// BEGIN STUDENT REGION histogram_keys_kernel
    // As histogram_bytes_kernel, with key_copies(bins) copies of the bins in dynamic shared memory (sized
    // by the launch), warp w counting into copy w % copies, and 16-byte loads of four keys.
    if (n < (std::size_t(1) << 24)) {  // below 2^24 keys: global atomics, no shared memory (smem = 0)
        const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
        for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
            atomicAdd(&counts[keys[i]], 1u);
        return;
    }
    extern __shared__ unsigned int key_counts[];  // (copies, bins)
    const unsigned int copies = key_copies(bins);
    for (unsigned int i = threadIdx.x; i < copies * bins; i += blockDim.x) key_counts[i] = 0;
    __syncthreads();  // every bin is zeroed before any thread counts into it

    unsigned int* mine = key_counts + (threadIdx.x / 32) % copies * bins;
    Run run;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    // The keys before the first 16-byte boundary (none at the start of an allocation), one a thread.
    const std::size_t to_boundary = ((16 - (reinterpret_cast<std::uintptr_t>(keys) & 15)) & 15) / 4;
    const std::size_t head = to_boundary < n ? to_boundary : n;
    if (tid < head) run.add(mine, keys[tid]);
    const auto add4 = [&](const uint4& v) {
        run.add(mine, v.x);
        run.add(mine, v.y);
        run.add(mine, v.z);
        run.add(mine, v.w);
    };
    const uint4* keys4 = reinterpret_cast<const uint4*>(keys + head);
    const std::size_t n4 = (n - head) / 4;  // whole uint4s
    std::size_t i = tid;
    for (; i + threads < n4; i += 2 * threads) {
        const uint4 a = keys4[i], b = keys4[i + threads];
        add4(a);
        add4(b);
    }
    if (i < n4) add4(keys4[i]);
    const std::size_t tail = head + n4 * 4;  // the last keys (fewer than 4), one a thread
    if (tail + tid < n) run.add(mine, keys[tail + tid]);
    run.flush(mine);
    __syncthreads();  // every warp's counts are in before the merge reads them

    for (unsigned int b = threadIdx.x; b < bins; b += blockDim.x) {
        unsigned int sum = 0;
        for (unsigned int c = 0; c < copies; ++c) sum += key_counts[c * bins + b];
        if (sum != 0) atomicAdd(&counts[b], sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_keys
    // As histogram_bytes, with the keys kernel's shared memory sized for its copies of the bins (at most
    // 32 KiB: under the 48 KiB a launch may ask for without raising the kernel's limit).
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t smem =
            n < (std::size_t(1) << 24) ? 0 : std::size_t(key_copies(bins)) * bins * sizeof(unsigned int);
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, smem)));
        histogram_keys_kernel<<<grid, kBlockSize, smem>>>(keys, n, bins, counts);
    }
// END STUDENT REGION

