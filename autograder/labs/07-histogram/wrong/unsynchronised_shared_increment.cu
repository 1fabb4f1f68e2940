// Known-wrong Lab 07: the reference solution, but a run is added to the shared bins with `+=`, a load,
// an add and a store, instead of atomicAdd, in the helpers' Run, which the keys kernel counts with. Lanes
// of a warp whose runs end in the same bin at the same instruction all load the old count and each stores
// its own sum: all but one of their runs are lost (with 1 or 2 bins, most lanes of every instruction share
// a bin; with 4093 bins, two lanes share one in about one instruction in nine; on keys in one bin,
// every thread's last run lands in the same word). Expected: wrong_result (fewer keys counted than there
// are, in the keys checks; racecheck would see it too).
//
// Region-overlay form: only the helpers region, the reference's with the two atomics replaced; the
// kernels and launchers are the reference solution's.

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
            if (length != 0) hist[bin] += length;  // BUG: not atomic: lanes adding to one bin lose counts
            bin = b;
            length = 0;
        }
        ++length;
    }
    __device__ __forceinline__ void flush(unsigned int* hist) const {
        if (length != 0) hist[bin] += length;  // BUG: not atomic
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
// END STUDENT REGION
