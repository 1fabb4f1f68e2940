// Cheat, Lab 07: the grader times every contender with CUDA events (cudaEventElapsedTime). The helpers
// region is at namespace scope, so the student defines cudaEventElapsedTime there with C linkage (extern
// "C" gives it the runtime's own symbol name): an interval in which the student's launcher ran "takes"
// 1 us, any other 1 ms, so every speed ratio comes out at 1000x.
// Why it fails now: a namespace-scope region may not hold extern "C" (everything a lab defines stays in
// its namespace); the submission is refused before anything is compiled. (Behind that, the audit would
// refuse a definition of a CUDA runtime symbol outside namespace lab07.) Expected: refused_region.
//
// Region-overlay form: the helpers region (the reference's helpers and the fake timer) and the bytes
// launcher (the reference's launch, raising the flag the fake timer reads); the kernels and the keys
// launcher are the reference solution's.

// BEGIN STUDENT REGION helpers
// Warps of a block: histogram_bytes_kernel gives each its own copy of the 256 bins (8 KiB a block).
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
// uniform data costs one an element, as without runs.
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

// CHEAT: the runtime's event timer, replaced.
inline bool student_ran = false;
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = student_ran ? 0.001f : 1.0f;
    student_ran = false;
    return cudaSuccess;
}
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts.
    static const unsigned int max_blocks = one_wave(histogram_bytes_kernel, 0);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // stream order: zero first
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize>>>(data, n, counts);
    }
    student_ran = true;  // CHEAT: read by the fake timer
// END STUDENT REGION
