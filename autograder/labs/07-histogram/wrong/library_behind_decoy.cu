// Cheat, Lab 07: the bytes kernel keeps a `__shared__` array and touches it (so the shared-memory check
// sees a kernel with shared memory run) while the launcher hands the counting to the grader's own peer,
// lab07::baseline::cub_histogram_bytes (cub::DeviceHistogram::HistogramEven), which the check program and
// both launch hosts link anyway. A block-scope declaration inside lab07 cannot name lab07::baseline, but
// the namespace-scope helpers region can declare it (no definition, so no clash at link time). Correct by
// construction, and exactly as fast as the peer.
// Why it fails now: the audit sees the lab's object import lab07::baseline::cub_histogram_bytes, another
// part of the lab's namespace that the lab does not define (the grader's code). Expected:
// forbidden_symbol.
//
// Region-overlay form: the helpers region (the reference's helpers and the declaration), the bytes kernel
// (the decoy) and the bytes launcher are this variant's; the keys kernel and launcher are the reference
// solution's.

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

// CHEAT: the grader's peer, declared (the check program and the launch hosts define it).
namespace baseline {
void cub_histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);
}  // namespace baseline
// END STUDENT REGION

// BEGIN STUDENT REGION histogram_bytes_kernel
    // The decoy: a shared array the kernel touches, so that a kernel with shared memory runs.
    __shared__ unsigned int decoy[kByteBins];
    decoy[threadIdx.x % kByteBins] = n > 0 ? data[0] : 0u;
    __syncthreads();
    if (threadIdx.x == 0 && n == 0 && decoy[0] == 1u) atomicAdd(&counts[0], 0u);  // never: the decoy runs with n = 0
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    // CHEAT: CUB does the work; the decoy runs too (n = 0: it changes nothing).
    baseline::cub_histogram_bytes(data, n, counts);
    histogram_bytes_kernel<<<one_wave(histogram_bytes_kernel, 0), kBlockSize>>>(data, 0, counts);
// END STUDENT REGION
