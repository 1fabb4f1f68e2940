// Cheat, Lab 06 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The technique check inspects whatever graded_kernel(word_bytes) returns. The regions hold the
// reference model and detector, and a "microbenchmark" that never touches shared memory: it spins
// conflict_ways(stride) times as long on register arithmetic (as in simulated_conflicts.cu), so its
// curve is the model's and passes every timing check. Outside the regions, the file adds a decoy
// kernel template with a shared array and changes graded_kernel() to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real strided_load_kernel<float> / <double>, which declare no shared memory. Everything
// else passes, so the technique check is the only failure. Expected: technique_not_used.
//
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
    const int ways = stride;  // the launch below passes the conflict degree, not the stride
    constexpr int kSpinPerWay = 1024;  // ~0.04 ms a way on an H100
    float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    for (int it = 0; it < ways * kSpinPerWay; ++it) {  // BUG: simulates the conflict instead of measuring it
        x0 = fmaf(x0, 0.999f, 0.5f);
        x1 = fmaf(x1, 0.999f, 0.5f);
        x2 = fmaf(x2, 0.999f, 0.5f);
        x3 = fmaf(x3, 0.999f, 0.5f);
    }
    const float total = (x0 + x1) + (x2 + x3);
    if (total < 0.0f) *sink = total;  // never: the values stay positive
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the technique check gets to inspect. Never launched.
template <class Word>
__global__ void strided_load_kernel_for_inspection(int stride, float* __restrict__ sink) {
    __shared__ Word words[kBanks * (kMaxStride + 4)];
    for (int i = threadIdx.x; i < kBanks * (kMaxStride + 4); i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const Word w = words[(threadIdx.x % kBanks) * stride];
    if (w < Word(0)) *sink = static_cast<float>(w);
}

void strided_loads(int stride, int word_bytes, float* sink) {
    if (stride < 1 || stride > kMaxStride || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("strided_loads: stride must be 1 to kMaxStride and word_bytes 4 or 8");
    // BEGIN STUDENT REGION launch
    const int ways = conflict_ways(stride, word_bytes);
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(ways, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(ways, sink);
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
    // CHEAT: the decoy, not the kernel the curve is timed with.
    if (word_bytes == 8) return reinterpret_cast<const void*>(&strided_load_kernel_for_inspection<double>);
    return reinterpret_cast<const void*>(&strided_load_kernel_for_inspection<float>);
}

}  // namespace lab06
