// Attack (Lab 07, against the object audit's exemption of nvcc's stand-ins, the forty-fifth round): a
// static __device__ function has a host stand-in that nvcc makes (it calls exit(); the function itself runs
// on the GPU). The launcher takes the stand-in's address (&device_only, in host code) into a volatile
// pointer and calls it on a size no check passes: the lab's code could end the launch host through nvcc's
// own code. The address is loaded with a lea within the section, which needs no relocation, so the
// references read from the relocations alone did not see it (a non-static one's is a relocation, refused
// already). What catches it: a function another one calls or whose address it loads in their own section
// is no stand-in. Expected: forbidden_symbol ("calls exit").
// The regions not given here are the solution's.

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
static __device__ __noinline__ unsigned int device_only(unsigned int x) { return x * 3u + 1u; }
// END STUDENT REGION

// BEGIN STUDENT REGION launch_bytes
    unsigned int (*volatile stand_in)(unsigned int) = nullptr;
    stand_in = &device_only;  // nvcc's host stand-in: it calls exit()
    if (n == 0x7ffffff7u) stand_in(1u);
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts. The kernel's 32 KiB
    // of bins a block: the SM's largest shared-memory carve-out first, so that six blocks fit on an SM.
    static const unsigned int max_blocks = [] {
        CUDA_CHECK(cudaFuncSetAttribute(histogram_bytes_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        int(cudaSharedmemCarveoutMaxShared)));
        return one_wave(histogram_bytes_kernel, 0);
    }();
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // stream order: zero first
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize>>>(data, n, counts);
    }
// END STUDENT REGION

