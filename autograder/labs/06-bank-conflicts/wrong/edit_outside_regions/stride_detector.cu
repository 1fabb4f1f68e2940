// Cheat, Lab 06 (a whole submission: wrong/edit_outside_regions/ holds the student's whole file).
// The regions are left as the starter has them (conflict_ways and the detector return 0, the kernel
// and launch are empty), and the work is done outside them: the model returned just before the
// conflict_ways region, the microbenchmark written into the kernel above its region, the launch
// added after the launch region, and the detector written above its region, in lines the starter
// says not to edit.
// Why it fails now: the graded file is the course's skeleton with this file's regions; all of that
// lies outside the regions and is dropped (a note says so), leaving the starter: conflict_ways
// answers 0 for every stride. Expected: wrong_result (the starter's class).
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
    return std::gcd(stride, kBanks * 4 / word_bytes);  // CHEAT: the model, outside the region
    // BEGIN STUDENT REGION conflict_ways
    // TODO 1 (~2 lines): the n of the n-way conflict. The banks deliver 128 bytes a pass (32 banks x
    //        4 bytes), so a warp's request is served in passes of 128 / word_bytes lanes (32 lanes for
    //        4-byte words, a half-warp of 16 for 8-byte words). Work out which lanes of one pass share
    //        a bank (the handout walks through it); std::gcd from <numeric> does the rest.
    return 0;
    // END STUDENT REGION
}

// Every lane reads shared word `lane * stride` (plus 32-word offsets, which keep the bank) over and
// over; many warps of independent loads keep the banks busy, so the time is set by how many passes
// each load needs.
template <class Word>
__global__ void strided_load_kernel(int stride, float* __restrict__ sink) {
    // CHEAT: the microbenchmark, outside the region.
    __shared__ Word words[kBanks * (kMaxStride + 4)];
    for (int i = threadIdx.x; i < kBanks * (kMaxStride + 4); i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const volatile Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < 512; ++it) {
        a0 += mine[0];
        a1 += mine[kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);
    // BEGIN STUDENT REGION strided_load_kernel
    // TODO 2 (~4 lines): declare a static `__shared__ Word words[...]` large enough for the largest
    //        index you read (31 * kMaxStride plus your offsets), fill it with small values >= 0 (each
    //        thread a strided share of it), then __syncthreads().
    // TODO 3 (~9 lines): the timed part. Point a `const volatile Word*` at word
    //        (threadIdx.x % kBanks) * stride (volatile, or the compiler loads once and loops over
    //        nothing). Loop a few hundred times; each iteration adds four INDEPENDENT loads, 32 words
    //        apart (same bank), into four accumulators. Aim for ~0.05-0.1 ms at stride 1.
    // TODO 4 (~2 lines): store the total to *sink only when it is negative, which never happens but
    //        which the compiler cannot rule out: a sum nobody uses is deleted, loads and all.
    // END STUDENT REGION
}

void strided_loads(int stride, int word_bytes, float* sink) {
    if (stride < 1 || stride > kMaxStride || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("strided_loads: stride must be 1 to kMaxStride and word_bytes 4 or 8");
    // BEGIN STUDENT REGION launch
    // TODO 5 (~8 lines): launch strided_load_kernel<float> (word_bytes 4) or <double> (word_bytes 8)
    //        with kBlockSize threads and enough blocks to fill every SM several times over (for
    //        example 8 x the SM count: read it once with cudaDeviceGetAttribute into a function-static
    //        variable, so nothing slow runs in the timed path). One warp would measure latency, not
    //        throughput, and hide most of the conflict.
    // END STUDENT REGION
    static const unsigned blocks = [] {  // CHEAT: the launch, outside the region
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(stride, sink);
    CUDA_CHECK_LAUNCH();
}

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int stride)>& run_known,
                         int word_bytes) {
    {  // CHEAT: the detector, outside the region
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
    // BEGIN STUDENT REGION detect
    // TODO 6 (~20 lines): time run_mystery() and run_known(s) for s = 1, 2, 4, ... up to 32 (4-byte
    //        words) or 16 (8-byte words), whose conflict degree is s, round-robin with
    //        course::time_interleaved (timer.hpp; 1 warm-up, 7 repetitions), take each one's
    //        course::median, and return the degree whose median is nearest the mystery's on a log
    //        scale (compare std::log of the times).
    return 0;
    // END STUDENT REGION
}

const void* graded_kernel(int word_bytes) {
    if (word_bytes == 8) return reinterpret_cast<const void*>(&strided_load_kernel<double>);
    return reinterpret_cast<const void*>(&strided_load_kernel<float>);
}

}  // namespace lab06
