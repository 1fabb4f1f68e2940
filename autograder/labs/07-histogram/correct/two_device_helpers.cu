// Correct Lab 07, the reference solution with two ordinary
// (non-inline) __device__ helper functions of the same signature in the helpers region, used by the kernels.
// nvcc gives each a host stand-in that calls exit(); GCC's identical-code folding (-O2/-O3) would turn the second
// into a call to the first, and the audit would take the first's exit() for a call of the lab's own (the
// lab's objects are compiled with -fno-ipa-icf).
// A submission written so was refused by the rules on the source or by the audit; it must pass every
// check, the audit of its compiled code included. The regions not given here are the solution's.

// BEGIN STUDENT REGION helpers
// Warps of a block: histogram_keys_kernel keeps at most one copy of the bins a warp.
inline constexpr int kWarps = kBlockSize / 32;
// Shared memory histogram_keys_kernel gives its copies of the bins: as many copies as fit in it, at most
// one a warp and at least one (4093 bins: 2 copies, 1000 bins: 8).
inline constexpr unsigned int kKeySharedBytes = 32 * 1024;
// The least number of elements a thread counts before its block merges: fewer would spend more on
// zeroing and merging the block's bins than on counting.
inline constexpr std::size_t kMinPerThread = 64;

// The copies of the bins a block of histogram_keys_kernel keeps (the launch sizes its shared memory so).
__host__ __device__ constexpr unsigned int key_copies(unsigned int bins) {
    const unsigned int fit = kKeySharedBytes / (bins * unsigned(sizeof(unsigned int)));
    return fit < 1 ? 1 : fit > unsigned(kWarps) ? unsigned(kWarps) : fit;
}

// A run of equal bins in one thread's sequence of elements, kept in registers: add() lengthens it or,
// when the bin changes, adds the finished run to the thread's histogram in shared memory with one
// atomic. Data that all falls in one bin costs one shared atomic a thread instead of one an element;
// uniform data costs one an element, as without runs. (histogram_keys_kernel's; the bytes kernel keeps its
// runs a 16-byte load at a time.)
struct Run {
    unsigned int bin = 0;
    unsigned int length = 0;
    __device__ __forceinline__ void add(unsigned int* hist, unsigned int b) {
        if (b != bin) {
            if (length != 0) atomicAdd(&hist[bin], length);
            bin = b;
            length = 0;
        }
        ++length;
    }
    __device__ __forceinline__ void flush(unsigned int* hist) const {
        if (length != 0) atomicAdd(&hist[bin], length);
    }
};

// Blocks of @p kernel (with @p smem bytes of dynamic shared memory) that fit on one SM at once, times the
// SMs: a grid that fills the GPU in one wave, so that no SM idles while another runs a last block.
template <class Kernel>
unsigned int one_wave(Kernel kernel, std::size_t smem) {
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlockSize, smem));
    return static_cast<unsigned int>(std::max(per_sm, 1) * sms);
}

// The lane of a thread within its warp, and its warp within the block.
__device__ unsigned int lane_of(unsigned int thread) { return thread % 32u; }
__device__ unsigned int warp_of(unsigned int thread) { return thread / 32u; }
// END STUDENT REGION

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

    const unsigned int lane = lane_of(threadIdx.x);  // kLanes == 32
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
    extern __shared__ unsigned int key_counts[];  // (copies, bins)
    const unsigned int copies = key_copies(bins);
    for (unsigned int i = threadIdx.x; i < copies * bins; i += blockDim.x) key_counts[i] = 0;
    __syncthreads();  // every bin is zeroed before any thread counts into it

    unsigned int* mine = key_counts + warp_of(threadIdx.x) % copies * bins;
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
