// Cheat, Lab 07: the speed checks divide the time of the grader's naive kernel,
// lab07::baseline::naive_histogram_bytes, by the student's. The helpers region is at namespace scope
// inside namespace lab07, so it can open `namespace baseline` and define naive_histogram_bytes there
// itself: the naive count run 10 times over, so the baseline looks 10x slower (its counts are still
// right). The region rules allow it (a nested namespace, no asm, no extern "C"), and the audit's
// namespace rule too: lab07::baseline::naive_histogram_bytes is in namespace lab07.
// Why it fails now: the grader's own code (its checks, its baselines, the course helpers) is linked as
// objects ahead of the lab's, and the audit refuses a lab object that defines any name the grader
// defines: here lab07::baseline::naive_histogram_bytes(unsigned char const*, unsigned long, unsigned
// int*). Expected: forbidden_symbol.
//
// Region-overlay form: only the helpers region (the reference's helpers and the interposed baseline);
// the kernels and launchers are the reference solution's.

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

// CHEAT: the grader's baseline, defined here as lab07::baseline::naive_histogram_bytes, 10x slower.
namespace baseline {
__global__ void slow_naive_kernel(const unsigned char* data, std::size_t n, unsigned int* counts) {
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < n) atomicAdd(&counts[data[i]], 1u);
}
void naive_histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    for (int again = 0; again < 10; ++again) {
        CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));
        if (n > 0) slow_naive_kernel<<<static_cast<unsigned int>(course::ceil_div(n, 256)), 256>>>(data, n, counts);
    }
}
}  // namespace baseline
// END STUDENT REGION
