// Lab 06 — Bank conflicts: model them, measure them, detect them.
//
// Teaches: how the 32 banks of shared memory serve a warp's loads; why lanes that read words
// `stride` apart cost gcd(stride, 32) passes for 4-byte words and gcd(stride, 16) for 8-byte words;
// how to measure that honestly (many warps of independent loads: throughput, not latency); and how
// to read the conflict degree of an unknown kernel off its timings.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab06   Handout: README.md beside this file.
// The grading run plots your measured curve in build/grading/lab06_strides.svg (data: .csv).
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "stride_detector.cuh"

#include "cuda_check.hpp"
#include "timer.hpp"

#include <cmath>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace lab06 {

int conflict_ways(int stride, int word_bytes) {
    if (stride < 1 || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("conflict_ways: stride must be at least 1 and word_bytes 4 or 8");
    // BEGIN STUDENT REGION conflict_ways
    // The banks deliver 128 bytes a pass (32 banks x 4 bytes), so a warp's request is served in
    // passes of 128 / word_bytes lanes: the whole warp for 4-byte words, a half-warp for 8-byte
    // words. Within a pass of L lanes, lanes l and l' share a bank exactly when (l - l') * stride is
    // a multiple of L, so every bank that is used is used by gcd(stride, L) lanes.
    const int lanes_per_pass = kBanks * 4 / word_bytes;  // 32 or 16
    return std::gcd(stride, lanes_per_pass);
    // END STUDENT REGION
}

// Every lane reads shared word `lane * stride` (plus 32-word offsets, which keep the bank) over and
// over; many warps of independent loads keep the banks busy, so the time is set by how many passes
// each load needs.
template <class Word>
__global__ void strided_load_kernel(int stride, float* __restrict__ sink) {
    // BEGIN STUDENT REGION strided_load_kernel
    constexpr int kLoads = 4;         // independent loads a thread per iteration
    constexpr int kIterations = 512;  // ~0.08 ms at stride 1 on an H100: far above the launch overhead
    constexpr int kWords = kBanks * (kMaxStride + kLoads);  // largest index read: 31 * kMaxStride + 3 * 32
    __shared__ Word words[kWords];                          // (kWords) 4.5 KiB of floats, 9 KiB of doubles
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();

    // volatile: every load in the loop must be issued. Without it the compiler sees the same addresses
    // and no stores, loads each word once before the loop, and the loop times only the adds.
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four accumulators: no load waits for another's add
    for (int it = 0; it < kIterations; ++it) {
        a0 += mine[0 * kBanks];  // k * 32 words further on is the same bank for 4- and 8-byte words
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    // Every word is >= 0, so the sum never is negative; the compiler cannot know that, so it must
    // compute the sum, and with it every load.
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);
    // END STUDENT REGION
}

void strided_loads(int stride, int word_bytes, float* sink) {
    if (stride < 1 || stride > kMaxStride || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("strided_loads: stride must be 1 to kMaxStride and word_bytes 4 or 8");
    // BEGIN STUDENT REGION launch
    // Eight blocks of 256 threads per SM: 64 warps, all an H100 SM holds. While some warps wait for
    // their loads, others issue theirs, so the banks never idle and the time measures their throughput.
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(stride, sink);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int stride)>& run_known,
                         int word_bytes) {
    // BEGIN STUDENT REGION detect
    // Calibrate on this GPU, in this run: a power-of-two stride up to the lanes of a pass has exactly
    // that many ways. Time those and the mystery round-robin (clock drift then hits all alike), take
    // medians, and answer with the degree whose time is nearest on a log scale, where "twice as
    // slow" is the same distance all along the curve (1 vs 2 ways and 16 vs 32 ways alike).
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
    // END STUDENT REGION
}

const void* graded_kernel(int word_bytes) {
    if (word_bytes == 8) return reinterpret_cast<const void*>(&strided_load_kernel<double>);
    return reinterpret_cast<const void*>(&strided_load_kernel<float>);
}

}  // namespace lab06
