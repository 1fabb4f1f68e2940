// Device-side checks of benchmark data (see verify.hpp).
#include "verify.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "random.hpp"

#include <algorithm>
#include <vector>

namespace grading {

namespace {
constexpr int kThreads = 256;

__global__ void compare_kernel(const float* __restrict__ got, const float* __restrict__ ref, std::size_t n, float atol,
                               float rtol, unsigned long long* mismatches, unsigned long long* first) {
    unsigned long long local = 0, local_first = ~0ull;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
        const float g = got[i], r = ref[i];
        if (!(fabsf(g - r) <= atol + rtol * fabsf(r))) {  // NaN never passes
            ++local;
            local_first = min(local_first, static_cast<unsigned long long>(i));
        }
    }
    if (local > 0) {
        atomicAdd(mismatches, local);
        atomicMin(first, local_first);
    }
}

// Sum over 8-byte words of hash(index, word): a change of any byte at any place changes the sum
// (but for a 2^-64 chance); a permutation of words does too, because each word is hashed with its index.
__global__ void fingerprint_kernel(const unsigned long long* __restrict__ words, std::size_t n_words,
                                   const unsigned char* __restrict__ tail, unsigned tail_bytes, unsigned long long* sum) {
    unsigned long long local = 0;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n_words;
         i += std::size_t(gridDim.x) * blockDim.x)
        local += course::hash64(words[i], i);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (unsigned b = 0; b < tail_bytes; ++b) local += course::hash64(tail[b] + 0x100ull * (b + 1), n_words);
    atomicAdd(sum, local);
}

unsigned grid_for(std::size_t n) {
    return static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(course::ceil_div(n, kThreads), 1), 4096));
}
}  // namespace

std::string DeviceComparison::summary(const std::string& name, std::size_t n) const {
    if (ok()) return "";
    return std::to_string(mismatches) + " of " + std::to_string(n) + " elements differ; first: " + name + "[" +
           std::to_string(first) + "] = " + std::to_string(got) + " (expected " + std::to_string(expected) + ")";
}

DeviceComparison compare_on_device(const float* got, const float* ref, std::size_t n, float atol, float rtol) {
    DeviceComparison c;
    if (n == 0) return c;
    course::DeviceBuffer<unsigned long long> counters(std::vector<unsigned long long>{0ull, ~0ull});
    compare_kernel<<<grid_for(n), kThreads>>>(got, ref, n, atol, rtol, counters.data(), counters.data() + 1);
    CUDA_CHECK_LAUNCH();
    const auto host = counters.download();
    c.mismatches = host[0];
    if (c.mismatches > 0) {
        c.first = static_cast<std::size_t>(host[1]);
        CUDA_CHECK(cudaMemcpy(&c.got, got + c.first, sizeof(float), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(&c.expected, ref + c.first, sizeof(float), cudaMemcpyDeviceToHost));
    }
    return c;
}

std::uint64_t fingerprint_on_device(const void* data, std::size_t bytes) {
    course::DeviceBuffer<unsigned long long> sum(std::vector<unsigned long long>{0ull});
    const std::size_t words = bytes / 8;
    const auto* base = static_cast<const unsigned char*>(data);
    fingerprint_kernel<<<grid_for(words), kThreads>>>(reinterpret_cast<const unsigned long long*>(data), words,
                                                      base + words * 8, static_cast<unsigned>(bytes % 8), sum.data());
    CUDA_CHECK_LAUNCH();
    return sum.download()[0];
}

namespace {
constexpr int kSampleWords = 32;

__global__ void sample_kernel(const unsigned* data, unsigned long long words, unsigned long long seed, unsigned* out) {
    const int i = threadIdx.x;
    if (i >= kSampleWords || words == 0) return;
    // splitmix64 of (seed, i): positions spread over the whole range, new for every seed
    unsigned long long z = seed + 0x9E3779B97F4A7C15ull * static_cast<unsigned long long>(i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    // the last word is always sampled: an output written in order is finished last there
    const unsigned long long at = i == 0 ? words - 1 : z % words;
    out[i] = data[at];
}
}  // namespace

std::vector<std::uint32_t> sample_words_on_device(const void* data, std::size_t words, std::uint64_t seed) {
    static unsigned* d_out = nullptr;
    static unsigned* h_out = nullptr;
    if (!d_out) {
        CUDA_CHECK(cudaMalloc(&d_out, kSampleWords * sizeof(unsigned)));
        CUDA_CHECK(cudaMallocHost(&h_out, kSampleWords * sizeof(unsigned)));
    }
    sample_kernel<<<1, kSampleWords>>>(static_cast<const unsigned*>(data), words, seed, d_out);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaMemcpyAsync(h_out, d_out, kSampleWords * sizeof(unsigned), cudaMemcpyDeviceToHost, 0));
    CUDA_CHECK(cudaStreamSynchronize(0));
    return std::vector<std::uint32_t>(h_out, h_out + (words == 0 ? 0 : kSampleWords));
}

}  // namespace grading
