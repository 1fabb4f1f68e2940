// The reference solution's parts, for the known-wrong variants of Lab 06: each variant gets all but
// one part right, takes the right ones from here, and shows only its bug in its own file.
#pragma once

#include "stride_detector.cuh"

#include "cuda_check.hpp"
#include "timer.hpp"

#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace lab06::reference {

inline int conflict_ways(int stride, int word_bytes) {
    if (stride < 1 || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("conflict_ways: stride must be at least 1 and word_bytes 4 or 8");
    return std::gcd(stride, kBanks * 4 / word_bytes);
}

inline void check_arguments(int stride, int word_bytes) {
    if (stride < 1 || stride > kMaxStride || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("strided_loads: stride must be 1 to kMaxStride and word_bytes 4 or 8");
}

/// 8 blocks per SM, read once.
inline unsigned throughput_blocks() {
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    return blocks;
}

template <class Word>
__global__ void strided_load_kernel(int stride, float* __restrict__ sink) {
    constexpr int kLoads = 4;
    constexpr int kIterations = 512;
    constexpr int kWords = kBanks * (kMaxStride + kLoads);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < kIterations; ++it) {
        a0 += mine[0 * kBanks];
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);
}

inline void strided_loads(int stride, int word_bytes, float* sink) {
    check_arguments(stride, word_bytes);
    if (word_bytes == 8)
        strided_load_kernel<double><<<throughput_blocks(), kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<throughput_blocks(), kBlockSize>>>(stride, sink);
    CUDA_CHECK_LAUNCH();
}

inline const void* graded_kernel(int word_bytes) {
    if (word_bytes == 8) return reinterpret_cast<const void*>(&strided_load_kernel<double>);
    return reinterpret_cast<const void*>(&strided_load_kernel<float>);
}

inline int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int)>& run_known,
                                int word_bytes) {
    const int max_ways = word_bytes == 8 ? 16 : 32;
    std::vector<std::function<void()>> contenders = {run_mystery};
    for (int ways = 1; ways <= max_ways; ways *= 2) contenders.push_back([&run_known, ways] { run_known(ways); });
    course::BenchOptions options;
    options.warmup = 1;
    options.repetitions = 7;
    const auto samples = course::time_interleaved(contenders, options);
    const double mystery = std::log(course::median(samples[0]));
    int best_ways = 1;
    double best_distance = INFINITY;
    for (std::size_t c = 1; c < contenders.size(); ++c) {
        const double distance = std::fabs(std::log(course::median(samples[c])) - mystery);
        if (distance < best_distance) {
            best_distance = distance;
            best_ways = 1 << (c - 1);
        }
    }
    return best_ways;
}

}  // namespace lab06::reference
