// Correct Lab 07, the reference solution, but the keys
// launcher zeroes counts with a kernel of its own, templated on a launch-configuration struct and bounded
// with __launch_bounds__(Launch::kThreads): a qualified name inside __launch_bounds__.
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

// The launch shape of the zeroing kernel below, kept in one place.
struct ZeroLaunch {
    static constexpr unsigned int kThreads = 256;
};

// Sets counts[0..bins) to zero, one element a thread.
template <class Launch>
__global__ void __launch_bounds__(Launch::kThreads) zero_counts_kernel(unsigned int* __restrict__ counts, unsigned int bins) {
    const unsigned int i = blockIdx.x * Launch::kThreads + threadIdx.x;
    if (i < bins) counts[i] = 0;
}
// END STUDENT REGION

    // BEGIN STUDENT REGION launch_keys
    // As histogram_bytes, with the keys kernel's shared memory sized for its copies of the bins (at most
    // 32 KiB: under the 48 KiB a launch may ask for without raising the kernel's limit).
    // stream order: the counts are zero before the histogram kernel adds to them
    zero_counts_kernel<ZeroLaunch><<<(bins + ZeroLaunch::kThreads - 1) / ZeroLaunch::kThreads, ZeroLaunch::kThreads>>>(counts, bins);
    CUDA_CHECK(cudaGetLastError());
    if (n > 0) {
        const std::size_t smem = std::size_t(key_copies(bins)) * bins * sizeof(unsigned int);
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, smem)));
        histogram_keys_kernel<<<grid, kBlockSize, smem>>>(keys, n, bins, counts);
    }
    // END STUDENT REGION
