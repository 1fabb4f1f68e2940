// Lab 06 checks — bank conflicts. One TEST_CASE per rubric item (rubric.json).
//
// The model is checked exactly, without a GPU, over its whole domain: every stride 1..128, strides near
// 2^31 / word_bytes and 2^31 - 1, and random strides up to 2^31 - 1 drawn from the printed seed, against
// the grader's own model computed in 64 bits. The microbenchmark is judged by the shape of its own
// measured curve: ratios T(s) / T(1) of its medians, each within a band around the model at every stride,
// so no absolute figure of any particular GPU enters. The detector is run against mystery strides drawn
// from a secret of the grading process (not from the printed seed). The student's code runs in a process
// of its own (interface.cpp): the detector's run_mystery() and run_known() call this program back, which
// launches the grader's kernel here, so no mystery's stride enters the student's process (built without
// isolation, the closures hold each stride masked with the secret). The curve is written to lab06_strides.csv and lab06_strides.svg in the artifacts folder
// (build/grading) for the student to look at.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "stride_detector.cuh"
#include "stride_report.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"
#include "guarded_buffer.hpp"
#include "isolation.hpp"
#include "kernel_trace.hpp"
#include "random.hpp"
#include "timer.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using grading::Failure;

namespace {

// The curve's band. A throughput benchmark's launch is a fixed part F (launch, fill, loop overhead)
// plus one part P for each pass the banks make, so T(s) = F + ways(s) * P and the slowdown
// T(s) / T(1) = 1 + (ways - 1) * P / (F + P): a straight line in the model's ways, of slope at most 1.
// At every stride s, with n = model_ways(s):
//   ceiling: (1 + kBandTolerance) * n. A conflict of n ways can at most multiply the time by n.
//   floor:   the straight line from (1 - kBandTolerance) at 1 way to the threshold at the top degree
//            (32 ways for 4-byte words, 16 for 8-byte): the weakest throughput curve the threshold
//            allows, step by step, not only at the top.
// and the slowest stride of n ways must be faster than the fastest of 2n ways (the model rises there).
// Calibration, on an NVIDIA H100 80GB HBM3 (132 SMs) with the reference solution (see the lab's README):
// 4-byte strides 2, 4, 8, 16, 32 measure 1.84x, 3.58x, 7.06x, 14.0x, 27.9x (floors 1.08, 1.54, 2.46,
// 4.31, 8.00; ceilings 2.30 to 36.8); 8-byte strides 2, 4, 8, 16 and 32 measure 1.92x, 3.78x, 7.52x,
// 15.0x, 15.0x (floors 1.19, 1.88, 3.25, 6.00, 6.00); odd strides 0.97x to 1.01x. Graded again, the
// reference's headline is 24.5x to 29.8x (4-byte) and 14.0x to 15.4x (8-byte) on H100 and H200: at
// least 206% and 133% above the floor at the top, and at most 1.01 n anywhere (ceiling 1.15 n). A one-warp
// dependent-load (latency) benchmark shows only about 3x at 32 ways and must fail (the
// latency_not_throughput variant does, with wrong_result).
constexpr double kMinSlowdownFloat32 = 8.0;   // T(32) / T(1), 4-byte words: the floor at 32 ways
constexpr double kMinSlowdownDouble16 = 6.0;  // min(T(16), T(32)) / T(1), 8-byte words: the floor at 16 ways

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("measured slowdown of 4-byte strides follows the model", kMinSlowdownFloat32);
GRADING_THRESHOLD("measured slowdown of 8-byte strides follows the model", kMinSlowdownDouble16);
constexpr double kBandTolerance = 0.15;  // rubric.json "band": noise, both sides; 5x the 3% spread of odd strides
constexpr double kOneWayFloor = 0.5;     // rubric.json "band": the least slowdown of a conflict-free stride
// The timed curve's counts (judge_timed_loads): the least share of the SMs' busy cycles the shared-memory
// pipe must spend on loads, and the least fraction of the model's wavefronts a memory instruction. The
// monitors' figure falls short of the model at high degrees (the reference, H100: 0.99-1.00 of the busy
// cycles at every stride; 0.49 of the model's wavefronts at 32 ways with 4-byte words, 0.85-0.95 up to 16;
// 0.60 at 16 ways with 8-byte words): a floor, not a band. Conflict-free loads repeated n times read 1
// (4-byte) or 2 (8-byte) at every stride.
constexpr double kMinTimedLoadShare = 0.5;
constexpr double kTimedWavefrontFloor = 0.35;
constexpr double kTinyLaunchMs = 0.01;   // a stride-1 launch this short is launch overhead, not loads
constexpr int kModelStrides = 128;       // every stride 1..128 is checked, then strides up to 2^31 - 1
constexpr int kRandomStrides = 1000;     // random strides a word size, from the printed seed
std::string csv_path() { return grading::artifact_path("lab06_strides.csv"); }
std::string svg_path() { return grading::artifact_path("lab06_strides.svg"); }

// The grader's own model, in 64 bits. A warp's request is served in passes of 128 bytes (32 banks x 4
// bytes), that is 128 / word_bytes lanes a pass; within a pass of L lanes, lanes l and l' share a bank
// iff L divides (l - l') * stride, so each bank in use serves gcd(stride, L) of them, one after another.
int model_ways(std::int64_t stride, int word_bytes) { return static_cast<int>(std::gcd(stride, std::int64_t(128 / word_bytes))); }

std::string word_name(int word_bytes) { return word_bytes == 4 ? "4-byte" : "8-byte"; }

// ---------------------------------------------------------------------------------------------
// (b) the model

// The strides past 128 the model is checked at: near 2^31 / word_bytes for both word sizes (where
// stride * word_bytes leaves int), every power of two and a few odd multiples of large ones, the
// largest ints, and kRandomStrides random strides up to 2^31 - 1 from the printed seed: half uniform,
// half an odd number times a random power of two, so that every conflict degree is drawn.
std::vector<int> large_strides(int word_bytes) {
    constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
    std::vector<std::int64_t> wanted;
    for (std::int64_t near : {std::int64_t(1) << 29, std::int64_t(1) << 28, std::int64_t(1) << 30, kIntMax / 4, kIntMax / 8})
        for (std::int64_t d = -3; d <= 3; ++d) wanted.push_back(near + d);
    for (int e = 7; e <= 30; ++e)
        for (std::int64_t odd : {1, 3, 5, 7, 255}) wanted.push_back(odd << e);
    for (std::int64_t d = 0; d < 8; ++d) wanted.push_back(kIntMax - d);
    const std::uint64_t seed = grading::seed_for("lab06-model-strides", static_cast<std::uint64_t>(word_bytes));
    for (int i = 0; i < kRandomStrides; ++i) {
        const std::uint64_t h = course::hash64(seed, static_cast<std::uint64_t>(i));
        if (i % 2 == 0) {
            wanted.push_back(1 + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(kIntMax)));
        } else {
            const int e = static_cast<int>(h % 31);                                   // 2^0 .. 2^30
            const std::int64_t odd_count = ((kIntMax >> e) + 1) / 2;                  // odd m with m * 2^e <= kIntMax
            const std::int64_t odd = 2 * static_cast<std::int64_t>((h >> 8) % static_cast<std::uint64_t>(odd_count)) + 1;
            wanted.push_back(odd << e);
        }
    }
    const auto fixed_end = wanted.begin() + static_cast<std::ptrdiff_t>(wanted.size() - kRandomStrides);
    std::sort(wanted.begin(), fixed_end);
    wanted.erase(std::unique(wanted.begin(), fixed_end), fixed_end);
    std::vector<int> out;
    for (std::int64_t s : wanted)
        if (s > kModelStrides && s <= kIntMax) out.push_back(static_cast<int>(s));
    return out;
}

void check_model(int word_bytes) {
    int wrong = 0, wrong_large = 0, checked = 0;
    bool like_floats = true;     // every answer is gcd(stride, 32): the 4-byte rule applied to 8-byte words
    bool uncapped = true;        // every answer is the power-of-two part of the stride, not capped
    std::string first, first_large;
    auto ask = [&](int stride, int& got) {
        try {
            got = lab06::conflict_ways(stride, word_bytes);
            return true;
        } catch (const std::exception& e) {
            grading::fail(Failure::Crash, "conflict_ways(" + std::to_string(stride) + ", " + std::to_string(word_bytes) +
                                              ") threw: " + e.what(),
                          "every stride of at least 1 is valid (the header's domain: any int from 1 to 2^31 - 1)");
            return false;
        }
    };
    auto mismatch = [&](int stride, int got, int expected) {
        return std::string("stride ") + std::to_string(stride) + ": got " + std::to_string(got) + ", expected " +
               std::to_string(expected);
    };
    for (int stride = 1; stride <= kModelStrides; ++stride, ++checked) {
        int got = 0;
        if (!ask(stride, got)) return;
        const int expected = model_ways(stride, word_bytes);
        like_floats = like_floats && got == std::gcd(stride, 32);
        uncapped = uncapped && got == (stride & -stride);
        if (got != expected && ++wrong <= 6) first += (first.empty() ? "" : "; ") + mismatch(stride, got, expected);
    }
    const std::vector<int> large = large_strides(word_bytes);
    for (int stride : large) {
        int got = 0;
        if (!ask(stride, got)) return;
        ++checked;
        const int expected = model_ways(stride, word_bytes);
        if (got != expected && ++wrong_large <= 4)
            first_large += (first_large.empty() ? "" : "; ") + mismatch(stride, got, expected);
    }
    grading::note("conflict_ways(stride, " + std::to_string(word_bytes) + ") checked at " + std::to_string(checked) +
                  " strides: 1 to " + std::to_string(kModelStrides) + ", then " + std::to_string(large.size()) +
                  " up to 2^31 - 1 (near 2^31 / 4 and 2^31 / 8, powers of two, and " + std::to_string(kRandomStrides) +
                  " random ones from seed " + std::to_string(grading::run_seed()) + ")");
    if (wrong == 0 && wrong_large == 0) return;
    std::string hint;
    if (wrong == 0)
        hint = "right up to 128, wrong past it: stride is any int from 1 to 2^31 - 1 (the header's domain), and a "
               "product such as stride * word_bytes or lane * stride leaves int there. Only gcd(stride, lanes a pass) "
               "matters, so reduce the stride first (stride % 32 keeps it), or compute in long long";
    else if (word_bytes == 8 && like_floats)
        hint = "that is the 4-byte rule: an 8-byte word covers two banks, so a pass of 128 bytes serves only 16 lanes "
               "(a half-warp), and lanes conflict when (l - l') * stride is a multiple of 16";
    else if (uncapped)
        hint = word_bytes == 4 ? "a warp has 32 lanes, so no bank can be asked for more than 32 words at once: stride 64 "
                                 "and stride 128 are 32-way, not 64- and 128-way"
                               : "a pass serves 16 lanes of 8-byte words, so no bank pair can be asked for more than 16 "
                                 "words a pass: stride 32 and stride 64 are 16-way";
    else
        hint = "lanes l and l' of one pass read the same bank when (l - l') * stride is a multiple of the lanes a pass "
               "serves (32 for 4-byte words, 16 for 8-byte words); odd strides such as 33 never conflict";
    std::string message = "conflict_ways(stride, " + std::to_string(word_bytes) + ") is wrong for ";
    if (wrong > 0)
        message += std::to_string(wrong) + " of " + std::to_string(kModelStrides) + " strides from 1 to " +
                   std::to_string(kModelStrides) + "; first: " + first;
    if (wrong_large > 0)
        message += std::string(wrong > 0 ? "; and for " : "") + std::to_string(wrong_large) + " of " +
                   std::to_string(large.size()) + " strides past " + std::to_string(kModelStrides) + "; first: " + first_large;
    grading::fail(Failure::WrongResult, message, hint);
}

// ---------------------------------------------------------------------------------------------
// (a) the microbenchmark

struct Curve {
    int word_bytes = 4;
    std::vector<double> ms;  // ms[s - 1]: median time of one launch at stride s
    int rounds = 0;          // measurement rounds taken
    // counters[s - 1]: what the GPU's performance monitors counted while stride s's timed batches ran, all
    // rounds (empty where they were not sampled: in-process timing, or no readable monitors)
    std::vector<grading::timed_counters::Totals> counters;
    double slowdown(int stride) const { return ms[stride - 1] / ms[0]; }
};

std::map<int, Curve> g_curves;  // what has been measured this run, for the report files

// Across the process boundary, each stride's calls are timed in batches of about kBatchMs of GPU time, back
// to back: what the boundary adds to a batch (switches of the GPU between processes, about 0.8 ms on an
// H200) is paid once a batch and learnt from a contender of the grader's own, so that what is left of it
// after the subtraction is under 1% of a batch at any stride. (Batches of 5 ms, 7 repetitions, measured on an
// H100: odd strides read from 0.45x to 1.04x of stride 1, a right kernel failed its band; 10 ms holds.)
constexpr double kBatchMs = 10.0;
constexpr int kMinBatchCalls = 1;
constexpr int kMaxBatchCalls = 1024;
constexpr int kRoughCalls = 16;  // calls a batch of the first round, which sizes the batches

// Medians of every stride 1..kMaxStride, timed round-robin so that clock changes hit all alike. Where the
// student's code runs in a process of its own, each stride is a batch of calls timed on the check program's
// clock (isolation::time_across), and what the boundary adds to a batch is learnt from the grader's own
// strided-load kernel in the peers' process, whose events time it as in-process events do.
std::vector<double> time_sweep(int word_bytes, float* sink, std::vector<grading::timed_counters::Totals>* counted) {
    const int repetitions = grading::quick() ? 3 : 9;
    std::vector<std::vector<double>> samples;
    if (!grading::isolation::enabled()) {
        std::vector<std::function<void()>> runs;
        for (int s = 1; s <= lab06::kMaxStride; ++s) runs.push_back([=] { lab06::strided_loads(s, word_bytes, sink); });
        course::BenchOptions options;
        options.warmup = 1;
        options.repetitions = repetitions;
        samples = course::time_interleaved(runs, options);
    } else {
        using grading::isolation::Contender;
        using grading::isolation::Host;
        static course::DeviceBuffer<float> calibration_sink(1);
        float* const peer_sink = calibration_sink.data();
        std::vector<Contender> contenders;
        const auto output = [sink](int) -> const void* { return sink; };
        for (int s = 1; s <= lab06::kMaxStride; ++s)
            contenders.push_back({[=](int) { lab06::strided_loads(s, word_bytes, sink); }, Host::Student, output,
                                  sizeof(float), false, true, kMinBatchCalls});
        contenders.push_back({[=](int) { grading::isolation::forward(Host::Peers, "strided_loads", 1, word_bytes, peer_sink); },
                              Host::Peers, [peer_sink](int) -> const void* { return peer_sink; }, sizeof(float), true,
                              true, kMinBatchCalls});
        // Rough rounds give each contender's host time a call, boundary included: at least its GPU time, so
        // the calls a batch they give keep a batch under kBatchMs of GPU time. The first, one call a batch
        // after a warm-up, sizes the slow contenders (a call of kBatchMs or more is a batch by itself); the
        // others are timed again kRoughCalls calls a batch, where the boundary weighs less.
        const auto rough_round = [&](const std::vector<std::size_t>& which, int calls, int warmup) {
            std::vector<Contender> rough;
            for (std::size_t c : which) {
                rough.push_back(contenders[c]);
                rough.back().calibrates = false;  // nothing is taken off: an overestimate
                rough.back().calls = calls;
            }
            const auto times = grading::isolation::time_across(rough, 1, warmup, 1, nullptr, nullptr, nullptr);
            std::vector<std::size_t> short_calls;
            for (std::size_t i = 0; i < which.size(); ++i) {
                const double per_call = std::max(times[i][0], 1e-3);
                contenders[which[i]].calls =
                    std::clamp(static_cast<int>(kBatchMs / per_call), kMinBatchCalls, kMaxBatchCalls);
                if (per_call < kBatchMs) short_calls.push_back(which[i]);
            }
            return short_calls;
        };
        std::vector<std::size_t> all(contenders.size());
        std::iota(all.begin(), all.end(), std::size_t(0));
        if (const auto short_calls = rough_round(all, 1, 1); !short_calls.empty()) rough_round(short_calls, kRoughCalls, 0);
        double boundary_ms = 0.0;
        std::vector<grading::timed_counters::Totals> per_contender;
        samples = grading::isolation::time_across(contenders, 1, 1, repetitions, nullptr, nullptr, nullptr, &boundary_ms,
                                                  &per_contender);
        samples.pop_back();
        if (counted && grading::timed_counters::available()) {
            per_contender.pop_back();  // the grader's kernel
            if (counted->empty()) counted->assign(per_contender.size(), {});
            for (std::size_t i = 0; i < per_contender.size() && i < counted->size(); ++i) (*counted)[i] += per_contender[i];
        }
        grading::note(word_name(word_bytes) + " curve timed across the process boundary in batches of about " +
                      grading::fixed(kBatchMs, 0) + " ms (" + std::to_string(contenders[0].calls) + " calls at stride 1, " +
                      std::to_string(contenders[31].calls) + " at stride 32), back to back; the boundary's cost, " +
                      grading::fixed(1000 * boundary_ms, 0) + " us a batch, learnt from the grader's kernel, comes off every batch");
    }
    std::vector<double> ms;
    for (const auto& s : samples) ms.push_back(course::median(s));
    return ms;
}

// The band of one word size: the top degree (the lanes of a pass) and the threshold there.
struct Band {
    int top = 32;
    double threshold = kMinSlowdownFloat32;
    // The floor at n ways: the straight line from (1 - tolerance) at 1 way to the threshold at the top.
    double floor(int ways) const {
        // An odd stride faster than stride 1 breaks no model (a correct kernel was measured at 0.83x on an
        // H200): 1 way is bounded below only against nonsense. The line still starts at 1 - tolerance.
        if (ways == 1) return kOneWayFloor;
        return (1 - kBandTolerance) + (ways - 1) * (threshold - (1 - kBandTolerance)) / (top - 1);
    }
    // The ceiling at n ways: n passes cost at most n times one pass.
    double ceiling(int ways) const { return (1 + kBandTolerance) * ways; }
};

Band band_of(int word_bytes) {
    return word_bytes == 4 ? Band{32, kMinSlowdownFloat32} : Band{16, kMinSlowdownDouble16};
}

// "1 way 0.50x to 1.15x, 2 ways 1.08x to 2.30x, ...": the band as the student's report shows it.
std::string band_text(int word_bytes) {
    const Band band = band_of(word_bytes);
    std::string text;
    for (int n = 1; n <= band.top; n *= 2)
        text += (text.empty() ? "" : ", ") + std::to_string(n) + (n == 1 ? " way " : " ways ") +
                grading::fixed(band.floor(n)) + "x to " + grading::fixed(band.ceiling(n)) + "x";
    return text;
}

// How far outside its bound a failing figure may lie and still be worth measuring again: a curve that fails
// by more is not one that noise made fail (noise moves a stride's median by a few percent on a GPU of its
// own; 16% was the most seen with other work on the GPUs beside it).
constexpr double kNearMiss = 0.25;

struct Verdict {
    bool ok = false;
    bool near = false;      // failing only within kNearMiss of every bound it misses: measured again
    double figure = 0.0;    // the headline slowdown (stride 32, or the smaller of 16 and 32 for 8-byte words)
    double threshold = 0.0;
    std::string message;
    std::string hint;
};

// Judges a curve: the headline against the threshold, every stride against the band of its model
// degree, and the order of the degrees (n ways faster than 2n ways).
Verdict judge(const Curve& c) {
    Verdict v;
    const bool floats = c.word_bytes == 4;
    const Band band = band_of(c.word_bytes);
    v.threshold = band.threshold;
    const std::string launch = "strided_loads(stride, " + std::to_string(c.word_bytes) + ")";
    if (!(c.ms[0] > 0.0) || !std::isfinite(c.ms[0])) {
        v.message = launch + " at stride 1 took no measurable time (" + grading::fixed(c.ms[0], 4) + " ms)";
        v.hint = "the launcher must launch strided_load_kernel on the default stream; nothing was timed";
        return v;
    }
    v.figure = floats ? c.slowdown(32) : std::min(c.slowdown(16), c.slowdown(32));
    const bool rises = v.figure >= v.threshold;

    // Every stride against its band; odd strides (1 way) apart, for their own hint.
    std::string odd_off, low, high;
    int odd_count = 0, low_count = 0, high_count = 0;
    bool near = !rises ? v.figure >= (1 - kNearMiss) * v.threshold : true;
    std::map<int, std::pair<double, double>> by_degree;  // n -> (fastest, slowest) slowdown of n-way strides
    for (int s = 1; s <= lab06::kMaxStride; ++s) {
        const int n = model_ways(s, c.word_bytes);
        const double x = c.slowdown(s);
        auto [it, fresh] = by_degree.try_emplace(n, x, x);
        if (!fresh) it->second = {std::min(it->second.first, x), std::max(it->second.second, x)};
        const bool in_band = x >= band.floor(n) && x <= band.ceiling(n);  // false for NaN too
        if (in_band) continue;
        near = near && x >= (1 - kNearMiss) * band.floor(n) && x <= (1 + kNearMiss) * band.ceiling(n);
        const std::string what = "stride " + std::to_string(s) + " (" + std::to_string(n) + "-way): " +
                                 grading::fixed(x) + "x, band " + grading::fixed(band.floor(n)) + "x to " +
                                 grading::fixed(band.ceiling(n)) + "x";
        if (n == 1) {
            if (++odd_count <= 4) odd_off += (odd_off.empty() ? "" : ", ") + what;
        } else if (x > band.ceiling(n)) {
            if (++high_count <= 4) high += (high.empty() ? "" : ", ") + what;
        } else if (++low_count <= 4) {
            low += (low.empty() ? "" : ", ") + what;
        }
    }
    // Where the model rises (n to 2n ways), the curve must rise too: every n-way stride faster than every 2n-way one.
    std::string unordered;
    for (auto it = by_degree.begin(); it != by_degree.end(); ++it) {
        const auto next = by_degree.find(2 * it->first);
        if (next == by_degree.end() || it->second.second < next->second.first) continue;
        near = near && it->second.second < (1 + kNearMiss) * next->second.first;
        unordered += (unordered.empty() ? "" : ", ") + std::to_string(it->first) + "-way strides up to " +
                     grading::fixed(it->second.second) + "x, " + std::to_string(next->first) + "-way from " +
                     grading::fixed(next->second.first) + "x";
    }
    v.ok = rises && odd_count == 0 && low_count == 0 && high_count == 0 && unordered.empty();
    if (v.ok) return v;
    v.near = near;

    const std::string conflicted = floats ? "stride 32 (32 ways)" : "strides 16 and 32 (16 ways)";
    auto add = [&](const std::string& part) { v.message += (v.message.empty() ? launch + ": " : "; ") + part; };
    if (!rises)
        add(conflicted + " only " + grading::fixed(v.figure) + "x slower than stride 1, needs at least " +
            grading::fixed(v.threshold, 1) + "x");
    if (odd_count > 0)
        add(std::to_string(odd_count) + (odd_count == 1 ? " odd stride is" : " odd strides are") + " outside " +
            grading::fixed(kOneWayFloor) + "x to " + grading::fixed(1 + kBandTolerance) + "x of stride 1 (" + odd_off + ")");
    if (high_count > 0)
        add(std::to_string(high_count) + (high_count == 1 ? " stride is" : " strides are") +
            " slower than its conflict allows (" + high + ")");
    if (low_count > 0)
        add(std::to_string(low_count) + (low_count == 1 ? " conflicted stride is" : " conflicted strides are") +
            " below the band (" + low + ")");
    if (!unordered.empty()) add("more ways are not slower (" + unordered + ")");

    if (c.ms[0] < kTinyLaunchMs)
        v.hint = "a stride-1 launch takes only " + grading::fixed(1000 * c.ms[0], 1) +
                 " us, about the cost of an empty launch: does the launcher launch the kernel, and does the kernel "
                 "store its sum (conditionally) to *sink? A sum nobody uses is deleted by the compiler, loads and all";
    else if (!rises && v.figure > 1.5)
        v.hint = "the time rises with the conflict, but too little: that is what a latency test shows (a few warps, each "
                 "load waiting for the one before, ~3x at 32 ways). Measure throughput: 8 blocks of 256 threads per SM, "
                 "four independent loads per iteration into separate accumulators";
    else if (!rises)
        v.hint = "the time hardly depends on the stride: is lane l reading shared word l * stride, through a volatile "
                 "pointer so that every load of the loop is really issued?";
    else if (high_count > 0)
        v.hint = "n passes cost at most n times one pass, so no stride can be more than n times slower than stride 1. "
                 "A curve above the model has more conflicts than the words it claims to load: does the kernel load "
                 "words of the size it is asked for (its shared array and pointer of type Word, not float)?";
    else if (low_count > 0 || !unordered.empty())
        v.hint = "each doubling of the conflict must show in the time, not only the largest: are all 32 lanes of a warp "
                 "reading distinct words lane * stride (lane = threadIdx.x % 32)? Lanes that read the same word are "
                 "served by one broadcast and hide part of the conflict";
    else
        v.hint = "odd strides are conflict-free and should cost what stride 1 costs: make each launch long enough "
                 "(~0.05-0.1 ms at stride 1) that launch overhead and noise do not matter, and read word lane * stride "
                 "with no other index term that changes the banks";
    return v;
}

// Runs every stride once through run_student (so launch errors are classified and writes next to
// the sink are caught), then measures. A curve that fails near its bounds (Verdict::near) is measured
// again (three rounds at most), keeping each stride's fastest median: noise only ever slows a run down.
// One that fails by more is judged on its first round.
std::optional<Curve> measure_curve(int word_bytes) {
    course::GuardedBuffer<float> sink(1);
    for (int s = 1; s <= lab06::kMaxStride; ++s) {
        const std::string what = "strided_loads(stride = " + std::to_string(s) + ", word_bytes = " +
                                 std::to_string(word_bytes) + ")";
        if (!grading::run_student([&] { lab06::strided_loads(s, word_bytes, sink.data()); }, what)) return std::nullopt;
    }
    if (const auto v = sink.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, "strided_loads " + v->describe() + " (the sink is one float)",
                      "only sink[0] belongs to the kernel: store the sum there, and only when it is negative");
        return std::nullopt;
    }
    Curve c;
    c.word_bytes = word_bytes;
    const auto sweep = [&] {
        return grading::isolation::blamed_twice([&] { return time_sweep(word_bytes, sink.data(), &c.counters); });
    };
    try {
        c.ms = sweep();
        c.rounds = 1;
        for (Verdict v = judge(c); !v.ok && v.near && c.rounds < 3; v = judge(c)) {
            const std::vector<double> again = sweep();
            for (std::size_t i = 0; i < again.size(); ++i) c.ms[i] = std::min(c.ms[i], again[i]);
            ++c.rounds;
        }
    } catch (const grading::isolation::GpuLeftBusy& e) {
        // Work of the student's process kept the GPU busy between its calls: it would have been timed in
        // the batches of the grader's calibrating kernel, and so taken off every stride's time.
        grading::fail(Failure::ImplausibleMeasurement, e.what(),
                      "return from strided_loads only when its kernel is done, and leave nothing running between calls");
        return std::nullopt;
    } catch (const grading::timed_counters::CountersTaken& e) {
        grading::fail(Failure::ImplausibleMeasurement,
                      std::string(e.what()) + ", though they could at the start: something else took them",
                      "leave the GPU's performance monitors alone: the grader samples them while it times your calls");
        return std::nullopt;
    }
    return c;
}

// Writes every curve measured so far to the CSV and SVG, and reads the CSV back.
void write_report_files() {
    std::vector<lab06::report::Point> points;
    for (const auto& [word_bytes, c] : g_curves)
        for (int s = 1; s <= lab06::kMaxStride; ++s)
            points.push_back({s, word_bytes, c.ms[s - 1], c.slowdown(s), model_ways(s, word_bytes)});
    std::string error;
    if (!lab06::report::write_csv(points, csv_path()) || !lab06::report::write_svg(points, svg_path())) {
        grading::note("could not write " + csv_path() + " or " + svg_path());
        return;
    }
    const auto back = lab06::report::read_csv(csv_path(), error);
    if (!error.empty() || back.size() != points.size()) {
        grading::note("the curve file does not read back: " + (error.empty() ? "row count differs" : error));
        return;
    }
    grading::note("curve (" + std::to_string(points.size()) + " rows) written to " +
                  std::filesystem::absolute(csv_path()).string() + " and plotted in " +
                  std::filesystem::absolute(svg_path()).string());
}

// The curve's time must be the shared loads' time, at every stride, in the very batches that were timed:
// what the GPU's performance monitors counted while each stride's batches ran (timed_counters.hpp). At a
// stride of n ways each warp's load takes n passes of the banks (wavefronts) for 4-byte words, 2n for 8-byte
// ones, and a kernel whose time is its loads keeps the shared-memory pipe serving them most of the SMs'
// busy cycles. A curve made otherwise (a spin as long as the model says beside a few real loads, memsets
// or copies added to a call, conflict-free passes repeated n times in the calls that are timed) shows
// the model's times but not these counts.
void judge_timed_loads(const Curve& c) {
    if (!grading::timed_counters::available()) {
        if (!grading::timed_counters::unavailable_reason().empty())
            grading::note("the shared loads of the timed calls are not judged here: " +
                          grading::timed_counters::unavailable_reason());
        return;
    }
    if (c.counters.size() != static_cast<std::size_t>(lab06::kMaxStride)) return;
    // Monitors that counted no busy cycle at some stride while its batches were timed did not count (another
    // profiler held them meanwhile, or they were left stuck): nothing is judged on them, either way.
    for (const auto& t : c.counters)
        if (t.windows > 0 && !t.counted_work()) {
            grading::note("the GPU's performance monitors counted no work while your timed calls ran (another profiler "
                          "may have held them): the shared loads of the timed calls are not judged");
            return;
        }
    std::string figures, low_share, off_model;
    for (int s = 1; s <= lab06::kMaxStride; ++s) {
        const auto& t = c.counters[s - 1];
        if (t.windows <= 0) continue;
        const double expected = model_ways(s, c.word_bytes) * c.word_bytes / 4.0;
        const double per = t.wavefronts_per_memory_instruction(), share = t.shared_load_share();
        figures += " " + std::to_string(s) + ":" + grading::fixed(share, 2) + "/" + grading::fixed(per, 1);
        if (!(share >= kMinTimedLoadShare) && low_share.size() < 200)
            low_share += (low_share.empty() ? "" : ", ") + std::string("stride ") + std::to_string(s) + " " +
                         grading::fixed(share, 2);
        if (!(per >= kTimedWavefrontFloor * expected) && off_model.size() < 200)
            off_model += (off_model.empty() ? "" : ", ") + std::string("stride ") + std::to_string(s) + " " +
                         grading::fixed(per, 2) + " (model " + grading::fixed(expected, 0) + ")";
    }
    grading::note(word_name(c.word_bytes) + " words, counted while the timed batches ran (share of the SMs' busy cycles "
                  "spent on shared loads / load wavefronts a memory instruction) by stride:" + figures);
    if (!low_share.empty()) {
        grading::fail(Failure::TechniqueNotUsed,
                      "while your timed calls ran, the shared-memory pipe served loads in too small a share of the SMs' "
                      "busy cycles (at least " + grading::fixed(kMinTimedLoadShare, 2) + " needed): " + low_share,
                      "the curve's time must be the time of the conflicted shared loads: no other work in the kernel or in "
                      "the launcher (spins, memsets, copies) whose length follows the model");
        return;
    }
    if (!off_model.empty())
        grading::fail(Failure::TechniqueNotUsed,
                      "while your timed calls ran, the shared loads did not take the model's passes of the banks "
                      "(wavefronts a memory instruction: at least " +
                          grading::fixed(100 * kTimedWavefrontFloor, 0) + "% of n for 4-byte words, of 2n for 8-byte ones): " +
                          off_model,
                      "every timed launch must read word lane * stride, each load of a warp at the stride's conflict: not "
                      "conflict-free loads repeated as often as the model says");
}

void check_curve(int word_bytes) {
    std::optional<Curve> curve;
    {
        const grading::GpuAlone alone;  // timed: with the GPU to this grading alone
        curve = measure_curve(word_bytes);
    }
    if (!curve) return;
    g_curves[word_bytes] = *curve;
    const Verdict v = judge(*curve);
    std::string line = word_name(word_bytes) + " words, slowdown T(s)/T(1) by stride s:";
    for (int s = 1; s <= lab06::kMaxStride; ++s)
        line += " " + std::to_string(s) + ":" + grading::fixed(curve->slowdown(s), s == 1 ? 0 : 2);
    grading::measured(v.figure, v.threshold, "x");
    grading::note(line);
    grading::note("band by conflict degree n (n ways must also be faster than 2n): " + band_text(word_bytes));
    grading::note("stride 1 takes " + grading::fixed(curve->ms[0], 4) + " ms a launch (median; " +
                  std::to_string(curve->rounds) + " round(s) of measurement)");
    write_report_files();
    if (!v.ok) {
        grading::fail(Failure::WrongResult, v.message, v.hint);
        return;
    }
    judge_timed_loads(*curve);
}

// ---------------------------------------------------------------------------------------------
// (c) the detector

struct Mystery {
    int stride;
    int ways;
};

// One mystery per conflict degree (1, 2, 4, ... up to the lanes of a pass), in a seeded order. Each
// stride is the degree times an odd multiplier, at most 128: exactly that many ways, and all 32 lanes
// read distinct words of the baseline's 1024-word array (no broadcast).
std::vector<Mystery> draw_mysteries(int word_bytes, std::uint64_t seed) {
    std::vector<Mystery> out;
    std::uint64_t counter = 0;
    for (int ways = 1; ways <= 128 / word_bytes; ways *= 2) {
        const int odd_multipliers = (lab06::baseline::kMaxStride / ways + 1) / 2;  // 1, 3, 5, ... with ways * m <= 128
        const int m = 2 * course::integer_at(seed, counter++, 0, odd_multipliers - 1) + 1;
        out.push_back({ways * m, ways});
    }
    for (std::size_t i = out.size() - 1; i > 0; --i)
        std::swap(out[i], out[course::hash64(seed, 1000 + i) % (i + 1)]);
    return out;
}

// The mysteries come from a secret of this process, drawn from the system's entropy and never printed:
// the printed seed (which the student knows) does not give them away. The closure a detector receives
// holds each stride only masked with that secret.
std::uint64_t mystery_secret() {
    static const std::uint64_t secret = [] {
        std::random_device rd;
        return (std::uint64_t(rd()) << 32) ^ rd();
    }();
    return secret;
}

void check_detector(int word_bytes) {
    const grading::GpuAlone alone;  // the detector times the mysteries: with the GPU to this grading alone
    course::DeviceBuffer<float> sink(1);
    const auto mysteries = draw_mysteries(word_bytes, course::hash64(mystery_secret(), std::uint64_t(word_bytes)));
    std::vector<int> answers;
    std::string results, misses;
    int missed = 0;
    for (std::size_t i = 0; i < mysteries.size(); ++i) {
        const Mystery m = mysteries[i];
        REQUIRE_MESSAGE(model_ways(m.stride, word_bytes) == m.ways, "grader error: a mystery of the wrong degree");
        // The mask is odd, so a masked stride never has the conflict degree of the stride it hides.
        const int mask = static_cast<int>(mystery_secret() & 0x7fffffff) | 1;
        const int masked = m.stride ^ mask;
        float* const d_sink = sink.data();
        auto run_mystery = [masked, word_bytes, d_sink] {
            const int unmask = static_cast<int>(mystery_secret() & 0x7fffffff) | 1;
            lab06::baseline::strided_loads(masked ^ unmask, word_bytes, d_sink);
        };
        auto run_known = [&](int stride) { lab06::baseline::strided_loads(stride, word_bytes, sink.data()); };
        int answer = 0;
        const std::string what = "detect_conflict_ways(mystery " + std::to_string(i + 1) + " of " +
                                 std::to_string(mysteries.size()) + ", word_bytes = " + std::to_string(word_bytes) + ")";
        if (!grading::run_student([&] { answer = lab06::detect_conflict_ways(run_mystery, run_known, word_bytes); }, what))
            return;
        answers.push_back(answer);
        const std::string line = "stride " + std::to_string(m.stride) + " (" + std::to_string(m.ways) + "-way): answered " +
                                 std::to_string(answer);
        results += (results.empty() ? "" : "; ") + line;
        if (answer != m.ways) misses += (missed++ == 0 ? "" : "; ") + line;
    }
    grading::note(word_name(word_bytes) + " mysteries: " + results);
    if (missed == 0) return;
    const bool constant = std::all_of(answers.begin(), answers.end(), [&](int a) { return a == answers[0]; });
    const std::string hint =
        constant ? "your detector gives the same answer for every mystery: time run_mystery() against run_known(s) "
                   "for s = 1, 2, 4, ... and answer with the degree whose time is nearest"
                 : "compare with known strides timed in the same run, not with a fixed table: 32 ways cost about "
                   "27x on an H100, not 32x. Use medians of interleaved runs, and compare the logarithms of the times";
    grading::fail(Failure::WrongResult,
                  std::to_string(missed) + " of " + std::to_string(mysteries.size()) + " " + word_name(word_bytes) +
                      " mysteries misjudged: " + misses,
                  hint);
}

// The race check's blocks: shared memory is a block's own, so two blocks show any race one block has.
constexpr unsigned kRaceBlocks = 2;

// The block shape and dynamic shared memory of one launch, as hand_launch_shape() hands them over.
struct LaunchShape {
    dim3 block;
    unsigned dynamic_smem = 0;
};

std::string shape_key(int word_bytes) { return "launch-" + std::to_string(word_bytes); }

// Traces one strided_loads() call and hands the block shape of its launch to the workload runs, when the
// call launched exactly one kernel, that kernel is graded_kernel(word_bytes), and the launch was a plain
// one (a cooperative launch or one with thread-block clusters cannot be repeated as a plain 2-block
// launch): the race check then runs that kernel with the same blocks, fewer of them. Anything else hands
// nothing (the workload then runs the launcher itself).
void hand_launch_shape(int word_bytes, float* sink) {
    std::optional<std::string> expected;
    if (!grading::isolation::enabled()) {
        expected = grading::kernel_name(lab06::graded_kernel(word_bytes));
    } else {
        try {
            expected = grading::isolation::call_string(grading::isolation::Host::Student, "graded_kernel_name",
                                                       {grading::isolation::arg(word_bytes)});
        } catch (const std::exception&) {
            // no name: the race check runs the launcher itself
        }
    }
    bool ran = false;
    const auto kernels = grading::trace_kernels(
        [&] { ran = grading::run_student([&] { lab06::strided_loads(1, word_bytes, sink); }, "strided_loads(1)"); }, nullptr);
    if (!ran) return;  // the failure is recorded
    if (!kernels || kernels->size() != 1 || !expected || kernels->front().name != *expected || !kernels->front().regular) {
        grading::note("strided_loads(1, " + std::to_string(word_bytes) + ") was not one plain launch of graded_kernel(" +
                      std::to_string(word_bytes) + "): the race check runs the launcher itself");
        return;
    }
    const auto& k = kernels->front();
    grading::note(k.name + ": " + std::to_string(k.grid[0] * k.grid[1] * k.grid[2]) + " blocks of " +
                  std::to_string(k.block[0]) + "x" + std::to_string(k.block[1]) + "x" + std::to_string(k.block[2]) +
                  " threads; the race check runs " + std::to_string(kRaceBlocks) + " blocks of that shape");
    grading::hand_to_workloads(shape_key(word_bytes), std::to_string(k.block[0]) + "x" + std::to_string(k.block[1]) + "x" +
                                                          std::to_string(k.block[2]) + "+" + std::to_string(k.dynamic_smem));
}

// The shape handed over for @p word_bytes: "XxYxZ+dynamic" with 1 to 1024 threads a block; nullopt otherwise.
std::optional<LaunchShape> launch_shape(int word_bytes) {
    const auto text = grading::workload_arg(shape_key(word_bytes));
    if (!text) return std::nullopt;
    unsigned x = 0, y = 0, z = 0, dyn = 0;
    char tail = 0;
    if (std::sscanf(text->c_str(), "%ux%ux%u+%u%c", &x, &y, &z, &dyn, &tail) != 4) return std::nullopt;
    if (x == 0 || y == 0 || z == 0 || x * y * z > 1024 || dyn > (1u << 20)) return std::nullopt;
    return LaunchShape{dim3(x, y, z), dyn};
}

}  // namespace

TEST_CASE("conflict_ways for 4-byte words at every stride" * doctest::test_suite("cpu")) {
    check_model(4);
}

TEST_CASE("conflict_ways for 8-byte words at every stride" * doctest::test_suite("cpu")) {
    check_model(8);
}

TEST_CASE("strided_load_kernel loads from shared memory") {
    course::DeviceBuffer<float> sink(1);
    for (int word_bytes : {4, 8}) {
        const std::string name = word_bytes == 4 ? "strided_load_kernel<float>" : "strided_load_kernel<double>";
        std::size_t static_smem = 0;
        if (!grading::isolation::enabled()) {
            cudaFuncAttributes attr{};
            CUDA_CHECK(cudaFuncGetAttributes(&attr, lab06::graded_kernel(word_bytes)));
            static_smem = attr.sharedSizeBytes;
            grading::note(name + ": " + std::to_string(attr.sharedSizeBytes) + " bytes of static shared memory, " +
                          std::to_string(attr.numRegs) + " registers a thread");
        } else {
            // As the student's process reports it: the kernel lives there.
            static_smem = static_cast<std::size_t>(grading::isolation::call_int(
                grading::isolation::Host::Student, "graded_static_smem", {grading::isolation::arg(word_bytes)}));
            grading::note(name + ": " + std::to_string(static_smem) + " bytes of static shared memory");
        }
        if (static_smem == 0) {
            grading::fail(Failure::TechniqueNotUsed, name + " declares no __shared__ memory",
                          "bank conflicts happen in shared memory: declare a static `__shared__ Word words[...]` array "
                          "and time loads from it (the model's curve without shared-memory loads measures nothing)");
            return;
        }
        hand_launch_shape(word_bytes, sink.data());
    }
}

TEST_CASE("measured slowdown of 4-byte strides follows the model" * doctest::test_suite("measured")) { check_curve(4); }

TEST_CASE("measured slowdown of 8-byte strides follows the model" * doctest::test_suite("measured")) { check_curve(8); }

TEST_CASE("detector names the ways of 4-byte mystery kernels" * doctest::test_suite("measured")) { check_detector(4); }

TEST_CASE("detector names the ways of 8-byte mystery kernels" * doctest::test_suite("measured")) { check_detector(8); }

// The runner's memory and race check runs this test case alone, under compute-sanitizer (memcheck,
// racecheck; see the rubric's "sanitizer" item): the lab's code at small sizes, on buffers of
// exactly the data's size, so that a read even one element past the end falls outside every allocation.
// Graded runs never include it; its results are judged by the sanitizer, not here.
//
// strided_loads() fills the GPU (blocks enough for every SM, thousands of shared loads a thread), and
// racecheck analyses every shared access on the host: about 80 CPU-seconds a call on an H200. Shared
// memory is a block's own, so a race shows in any one block: under racecheck, the graded kernel runs in
// kRaceBlocks blocks of the very shape the graded run saw the launcher use (hand_launch_shape). Without
// that shape (a workload run alone) the launcher itself runs, as it does under memcheck.
TEST_CASE("sanitizer workload" * doctest::test_suite("sanitizer")) {
    course::DeviceBuffer<float> sink(1);
    // Stride 2 with 8-byte words and 3 with 4-byte words, then, for each word size, one stride from 4 to
    // kMaxStride drawn from the run's seed: a kernel whose path changes with the stride (a barrier kept only
    // at small strides, say) cannot know which strides the tools see.
    std::vector<std::pair<int, int>> runs = {{8, 2}, {4, 3}};
    for (const int word_bytes : {8, 4})
        runs.push_back({word_bytes, 4 + static_cast<int>(grading::seed_for("lab06-sanitizer-stride", word_bytes) %
                                                         std::uint64_t(lab06::kMaxStride - 3))});
    for (const auto& [word_bytes, stride] : runs) {
        const std::string what = "strided_loads(stride = " + std::to_string(stride) + ", word_bytes = " +
                                 std::to_string(word_bytes) + ")";
        const auto shape = grading::workload_tool() == "racecheck" ? launch_shape(word_bytes) : std::nullopt;
        if (!shape) {
            if (!grading::run_student([&, w = word_bytes, st = stride] { lab06::strided_loads(st, w, sink.data()); }, what))
                return;
            continue;
        }
        float* sink_ptr = sink.data();
        int stride_arg = stride;
        const std::string direct = "strided_load_kernel (word_bytes = " + std::to_string(word_bytes) + ", stride = " +
                                   std::to_string(stride) + ") in " + std::to_string(kRaceBlocks) +
                                   " blocks of the launcher's shape";
        const auto launch = [&] {
            if (grading::isolation::enabled()) {
                grading::isolation::forward(grading::isolation::Host::Student, "launch_graded", word_bytes, stride_arg,
                                            sink_ptr, kRaceBlocks, shape->block.x, shape->block.y, shape->block.z,
                                            shape->dynamic_smem);
                return;
            }
            void* args[] = {&stride_arg, &sink_ptr};
            CUDA_CHECK(cudaLaunchKernel(lab06::graded_kernel(word_bytes), dim3(kRaceBlocks), shape->block, args,
                                        shape->dynamic_smem, nullptr));
        };
        if (!grading::run_student(launch, direct)) return;
    }
}

// The runner's Nsight Compute check runs this test case alone (the rubric's "shared_memory_use" item),
// after the grader's probe kernel: strided_loads at strides of every conflict degree, for both word sizes,
// each a call of its own. Nsight Compute counts the shared-memory load wavefronts of each launch for each
// load instruction: a warp's load of 4-byte words takes one wavefront a pass of the banks, of 8-byte words
// two, so a load at a stride of n ways takes n (4-byte) or 2n (8-byte) wavefronts (the grader's model,
// model_ways). A curve made some other way (loops repeated as often as the model says, a grid scaled by
// it) shows the model's times but not its wavefronts. Graded runs never include it.
TEST_CASE("profile workload" * doctest::test_suite("profile")) {
    course::DeviceBuffer<float> sink(1);
    for (int word_bytes : {4, 8})
        for (int stride : {1, 2, 3, 4, 8, 16, 24, 32}) {
            const std::string what = "strided_loads(stride = " + std::to_string(stride) + ", word_bytes = " +
                                     std::to_string(word_bytes) + ")";
            if (!grading::run_student([&] { lab06::strided_loads(stride, word_bytes, sink.data()); }, what)) return;
            grading::profile_call_done(what, {{"wavefronts", double(model_ways(stride, word_bytes) * word_bytes / 4)}});
        }
}
