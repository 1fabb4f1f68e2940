// Lab 08 baselines: the naive multi-block scan, the CUB peer and the grader's exact comparison on the GPU
// (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"
#include "device_buffer.hpp"

#include <cub/device/device_scan.cuh>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace lab08::baseline {

namespace {
constexpr int kThreads = 256;

// a + b modulo 2^32 (unsigned arithmetic wraps by definition), read back as an int.
__device__ __forceinline__ int wrap_add(int a, int b) {
    return static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b));
}

// Each block scans its 256 elements with Hillis–Steele, double-buffered, and writes its total to
// totals[blockIdx.x] (when totals is not null).
__global__ void naive_block_scan_kernel(const int* __restrict__ in, int* __restrict__ out, std::size_t n,
                                        int* __restrict__ totals) {
    __shared__ int buffer[2][kThreads];
    const std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
    int cur = 0;
    buffer[cur][threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned offset = 1; offset < kThreads; offset *= 2) {
        const int mine = buffer[cur][threadIdx.x];
        buffer[1 - cur][threadIdx.x] = threadIdx.x >= offset ? wrap_add(buffer[cur][threadIdx.x - offset], mine) : mine;
        cur = 1 - cur;
        __syncthreads();
    }
    if (i < n) out[i] = buffer[cur][threadIdx.x];
    if (totals && threadIdx.x == kThreads - 1) totals[blockIdx.x] = buffer[cur][threadIdx.x];
}

// Adds carries[b - 1], the sum of every block before block b, to each element of block b > 0.
__global__ void naive_add_kernel(int* __restrict__ out, std::size_t n, const int* __restrict__ carries) {
    if (blockIdx.x == 0) return;
    const std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
    if (i < n) out[i] = wrap_add(out[i], carries[blockIdx.x - 1]);
}

// Scratch for the block totals and their scan at each level of the recursion, grown on demand.
int* level_buffer(int slot, std::size_t count) {
    static std::vector<course::DeviceBuffer<int>> buffers(16);
    if (buffers.at(static_cast<std::size_t>(slot)).size() < count) {
        buffers[static_cast<std::size_t>(slot)] = course::DeviceBuffer<int>();
        buffers[static_cast<std::size_t>(slot)] = course::DeviceBuffer<int>(count);
    }
    return buffers[static_cast<std::size_t>(slot)].data();
}

void naive_scan_level(const int* in, int* out, std::size_t n, int level) {
    const std::size_t blocks = course::ceil_div(n, std::size_t(kThreads));
    if (blocks == 1) {
        naive_block_scan_kernel<<<1, kThreads>>>(in, out, n, nullptr);
        CUDA_CHECK_LAUNCH();
        return;
    }
    int* totals = level_buffer(2 * level, blocks);
    int* carries = level_buffer(2 * level + 1, blocks);
    naive_block_scan_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(in, out, n, totals);
    CUDA_CHECK_LAUNCH();
    naive_scan_level(totals, carries, blocks, level + 1);
    naive_add_kernel<<<static_cast<unsigned>(blocks), kThreads>>>(out, n, carries);
    CUDA_CHECK_LAUNCH();
}

// Lowers *first to the least index where a and b differ.
__global__ void first_difference_kernel(const unsigned* __restrict__ a, const unsigned* __restrict__ b, std::size_t n,
                                        unsigned long long* first) {
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride)
        if (a[i] != b[i]) {
            atomicMin(first, static_cast<unsigned long long>(i));
            return;  // later indices of this thread are larger
        }
}
}  // namespace

void naive_scan(const int* in, int* out, std::size_t n) { naive_scan_level(in, out, n, 0); }

CubScan::CubScan(std::size_t max_n) : max_n_(max_n) {
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, temp_bytes_, static_cast<const unsigned*>(nullptr),
                                             static_cast<unsigned*>(nullptr), static_cast<long long>(max_n)));
    CUDA_CHECK(cudaMalloc(&temp_, temp_bytes_));
}

CubScan::~CubScan() { cudaFree(temp_); }

void CubScan::operator()(const int* in, int* out, std::size_t n) {
    if (n > max_n_) throw std::invalid_argument("CubScan: n is larger than the storage was sized for");
    std::size_t bytes = temp_bytes_;
    CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp_, bytes, reinterpret_cast<const unsigned*>(in),
                                             reinterpret_cast<unsigned*>(out), static_cast<long long>(n)));
}

std::size_t first_difference(const int* a, const int* b, std::size_t n) {
    course::DeviceBuffer<unsigned long long> first(1);
    const unsigned long long none = n;
    first.upload(&none, 1);
    first_difference_kernel<<<1024, 256>>>(reinterpret_cast<const unsigned*>(a), reinterpret_cast<const unsigned*>(b), n,
                                           first.data());
    CUDA_CHECK_LAUNCH();
    return static_cast<std::size_t>(first.download()[0]);
}

}  // namespace lab08::baseline
