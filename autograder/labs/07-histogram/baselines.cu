// Lab 07 baselines: the naive global-atomic histogram, the CUB peer, and the input makers (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"
#include "random.hpp"

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <memory>

namespace lab07::baseline {

namespace {
constexpr int kThreads = 256;
constexpr unsigned int kMakerBlocks = 4096;  // the input makers' grid: a grid-stride loop covers any n

__global__ void naive_histogram_kernel(const unsigned char* __restrict__ data, std::size_t n,
                                       unsigned int* __restrict__ counts) {
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    if (i < n) atomicAdd(&counts[data[i]], 1u);
}

// The second tier: one histogram a block in shared memory, a byte a thread an iteration, one global atomic
// a nonzero bin a block.
__global__ void privatised_histogram_kernel(const unsigned char* __restrict__ data, std::size_t n,
                                            unsigned int* __restrict__ counts) {
    __shared__ unsigned int block_counts[256];
    for (unsigned int b = threadIdx.x; b < 256; b += blockDim.x) block_counts[b] = 0;
    __syncthreads();
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        atomicAdd(&block_counts[data[i]], 1u);
    __syncthreads();
    for (unsigned int b = threadIdx.x; b < 256; b += blockDim.x)
        if (block_counts[b] != 0) atomicAdd(&counts[b], block_counts[b]);
}

// Every maker: element i of d[0..n) from f(i), in a grid-stride loop (past 2^32 elements too).
template <class T, class F>
__global__ void make_kernel(T* __restrict__ d, std::size_t n, F f) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        d[i] = f(i);
}

template <class T, class F>
void make(T* d, std::size_t n, F f) {
    if (n == 0) return;
    const auto blocks = static_cast<unsigned int>(std::min<std::size_t>(course::ceil_div(n, kThreads), kMakerBlocks));
    make_kernel<<<blocks, kThreads>>>(d, n, f);
    CUDA_CHECK_LAUNCH();
}

struct UniformByte {
    std::uint64_t seed;
    __device__ unsigned char operator()(std::size_t i) const {
        return static_cast<unsigned char>(course::hash64(seed, i) >> 56);
    }
};
struct SkewedByte {
    std::uint64_t seed;
    __device__ unsigned char operator()(std::size_t i) const {
        const std::uint64_t h = course::hash64(seed, i);
        return static_cast<unsigned char>(h & (h >> 8) & (h >> 16));
    }
};
struct PatternByte {
    unsigned int period;
    __device__ unsigned char operator()(std::size_t i) const { return static_cast<unsigned char>(i % period); }
};
struct UniformKey {
    std::uint64_t seed;
    unsigned int bins;
    __device__ std::uint32_t operator()(std::size_t i) const {
        return static_cast<std::uint32_t>(course::hash64(seed, i) % bins);
    }
};
struct SkewedKey {
    std::uint64_t seed;
    unsigned int bins;
    __device__ std::uint32_t operator()(std::size_t i) const {
        const std::uint64_t h = course::hash64(seed, i);
        return static_cast<std::uint32_t>((h & 0xffffffffu) % bins) & static_cast<std::uint32_t>((h >> 32) % bins);
    }
};
struct ConstantKey {
    std::uint32_t key;
    __device__ std::uint32_t operator()(std::size_t) const { return key; }
};
struct PatternKey {
    unsigned int period;
    __device__ std::uint32_t operator()(std::size_t i) const { return static_cast<std::uint32_t>(i % period); }
};
}  // namespace

void naive_histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    CUDA_CHECK(cudaMemsetAsync(counts, 0, 256 * sizeof(unsigned int)));
    if (n == 0) return;
    naive_histogram_kernel<<<static_cast<unsigned int>(course::ceil_div(n, kThreads)), kThreads>>>(data, n, counts);
    CUDA_CHECK_LAUNCH();
}

void privatised_histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    static const unsigned int most = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned int>(sms);
    }();
    CUDA_CHECK(cudaMemsetAsync(counts, 0, 256 * sizeof(unsigned int)));
    if (n == 0) return;
    const auto blocks = static_cast<unsigned int>(std::min<std::size_t>(course::ceil_div(n, kThreads), most));
    privatised_histogram_kernel<<<blocks, kThreads>>>(data, n, counts);
    CUDA_CHECK_LAUNCH();
}

CubHistogram::CubHistogram(std::size_t max_n) {
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, temp_bytes_, static_cast<const unsigned char*>(nullptr),
                                                   static_cast<unsigned int*>(nullptr), 257, 0, 256,
                                                   static_cast<long long>(max_n)));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
}

CubHistogram::~CubHistogram() { cudaFree(temp_); }

void CubHistogram::operator()(const unsigned char* data, std::size_t n, unsigned int* counts) {
    std::size_t bytes = temp_bytes_;
    CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp_, bytes, data, counts, 257, 0, 256, static_cast<long long>(n)));
}

void cub_histogram_bytes(const unsigned char* data, std::size_t n, unsigned int* counts) {
    static std::unique_ptr<CubHistogram> peer;
    static std::size_t capacity = 0;
    if (!peer || n > capacity) {
        peer.reset();
        peer = std::make_unique<CubHistogram>(n);
        capacity = n;
    }
    (*peer)(data, n, counts);
}

void fill_uniform_bytes(unsigned char* d, std::size_t n, std::uint64_t seed) { make(d, n, UniformByte{seed}); }
void fill_skewed_bytes(unsigned char* d, std::size_t n, std::uint64_t seed) { make(d, n, SkewedByte{seed}); }
void fill_pattern_bytes(unsigned char* d, std::size_t n, unsigned int period) { make(d, n, PatternByte{period}); }
void fill_uniform_keys(std::uint32_t* d, std::size_t n, unsigned int bins, std::uint64_t seed) {
    make(d, n, UniformKey{seed, bins});
}
void fill_skewed_keys(std::uint32_t* d, std::size_t n, unsigned int bins, std::uint64_t seed) {
    make(d, n, SkewedKey{seed, bins});
}
void fill_constant_keys(std::uint32_t* d, std::size_t n, std::uint32_t key) { make(d, n, ConstantKey{key}); }
void fill_pattern_keys(std::uint32_t* d, std::size_t n, unsigned int period) { make(d, n, PatternKey{period}); }

}  // namespace lab07::baseline
