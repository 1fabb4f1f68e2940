/// @file speed.hpp
/// @brief Speed checks as ratios against a baseline and a library peer timed in the same run, where
/// every timed call of the student's code is verified.
///
/// A lab's speed bench holds at least two inputs with different contents, each with its reference
/// computed before the student's code ever saw it. Every call of the student's launcher, warm-ups and
/// timed repetitions alike, takes the next input in turn into a freshly poisoned output; afterwards,
/// outside the timed interval and with the whole device idle, its result is checked against that input's
/// reference and the input against its fingerprint. So a result cached by pointer, by size or by a
/// sample of the input, work skipped at the benchmark size, or an input used as scratch all fail as
/// wrong results; and a ratio no kernel can reach, or work the timer could not see, fails as an
/// implausible measurement.
#pragma once

#include "grading.hpp"
#include "verify.hpp"

#include "device_buffer.hpp"
#include "random.hpp"
#include "timer.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace grading {

/// @brief Median times (ms) of the three contenders of a speed check, timed interleaved.
struct Timings {
    double student_ms = 0.0;   ///< the student's launcher
    double baseline_ms = 0.0;  ///< the naive baseline in autograder/
    double peer_ms = 0.0;      ///< the CUDA library peer (CUB, cuBLAS, cudaMemcpy)
    double student_host_ms = 0.0;  ///< median host time of the student's calls, device-wide synchronised
    int rounds = 0;            ///< measurement rounds taken (re-measured near the threshold)
    int verified_calls = 0;    ///< student calls whose result was checked
    std::string problem;       ///< the first verification failure ("" when every call was right)
};

/// @brief How the speed checks drive and check the student's timed calls.
struct VerifiedCalls {
    int inputs = 2;  ///< input sets, used in turn, call by call
    /// @brief Before a student call, outside the timed interval: make input @p input current (the student
    /// contender reads it) and poison the output.
    std::function<void(int input)> select;
    /// @brief After it, with the device idle: "" when the output matches input @p input's reference and the
    /// input is unchanged, else what is wrong.
    std::function<std::string(int input)> verify;
};

/// @brief The inputs of a speed bench: @p count device arrays of @p n floats with different random contents,
/// and the fingerprint of each, taken before any of the student's code ran.
struct BenchInputs {
    std::vector<course::DeviceBuffer<float>> arrays;  ///< the inputs, A, B, ...
    std::vector<std::uint64_t> prints;                ///< their fingerprints
    std::size_t n = 0;                                ///< elements of each

    /// @param tag names the inputs' seeds (with seed_for)
    /// @param lo, hi the range of the uniform random values
    BenchInputs(std::size_t n_, const std::string& tag, float lo, float hi, int count = 2) : n(n_) {
        for (int i = 0; i < count; ++i) {
            arrays.emplace_back(n);
            course::fill_uniform_device(arrays.back().data(), n, seed_for(tag, static_cast<std::uint64_t>(i)), lo, hi);
            prints.push_back(fingerprint_on_device(arrays.back().data(), n * sizeof(float)));
        }
    }
    /// @brief Input @p i.
    const float* operator[](int i) const { return arrays[static_cast<std::size_t>(i)].data(); }
    /// @brief "" when input @p i is as it was, else a sentence saying it was changed.
    std::string changed(int i) const {
        if (fingerprint_on_device(arrays[static_cast<std::size_t>(i)].data(), n * sizeof(float)) == prints[static_cast<std::size_t>(i)])
            return "";
        return "the call changed its input, which is read-only (the grader computed the reference from it first)";
    }
};

/// @brief The most a memory- or compute-bound kernel can beat the library peer by before the measurement
/// is not believed: the peers (CUB, cuBLAS, cudaMemcpy) run at the hardware's limit.
inline constexpr double kMaxRatioToPeer = 1.15;

/// @brief Times student, baseline and peer round-robin and returns their medians; every student call is
/// selected and verified through @p calls.
inline Timings time_contenders(const std::function<void()>& student, const std::function<void()>& baseline,
                               const std::function<void()>& peer, const VerifiedCalls& calls) {
    course::BenchOptions opt;
    opt.warmup = 2;
    opt.repetitions = quick() ? 5 : 15;
    Timings t;
    int call = 0, input = 0;
    opt.before_each = [&](std::size_t c) {
        if (c != 0) return;
        input = call % std::max(calls.inputs, 1);
        calls.select(input);
    };
    opt.after_each = [&](std::size_t c) {
        if (c != 0) return;
        ++call;
        ++t.verified_calls;
        if (!t.problem.empty()) return;
        const std::string wrong = calls.verify(input);
        if (!wrong.empty())
            t.problem = "call " + std::to_string(call) + " of your code at the benchmark size (input " +
                        std::string(1, static_cast<char>('A' + input)) + "): " + wrong;
    };
    std::vector<std::vector<double>> host;
    opt.host_ms = &host;
    const auto s = course::time_interleaved({student, baseline, peer}, opt);
    t.student_ms = course::median(s[0]);
    t.baseline_ms = course::median(s[1]);
    t.peer_ms = course::median(s[2]);
    t.student_host_ms = course::median(host[0]);
    t.rounds = 1;
    return t;
}

/// @brief Measures, and when @p ratio of the result falls short of @p threshold by less than 15%,
/// measures again (up to three rounds in all), keeping the round with the best ratio: noise can
/// make a right kernel look slow, never fast, so a near miss earns a second look before it fails.
/// A wrong result in any timed call fails the check as a wrong result; a ratio to the peer above
/// kMaxRatioToPeer, or student work the events did not see, as an implausible measurement.
inline Timings measure_against(const std::function<void()>& student, const std::function<void()>& baseline,
                               const std::function<void()>& peer, const std::function<double(const Timings&)>& ratio,
                               double threshold, const VerifiedCalls& calls) {
    Timings best = time_contenders(student, baseline, peer, calls);
    int verified = best.verified_calls;
    for (int round = 2; best.problem.empty() && round <= 3 && ratio(best) < threshold && ratio(best) >= 0.85 * threshold;
         ++round) {
        Timings again = time_contenders(student, baseline, peer, calls);
        verified += again.verified_calls;
        if (!again.problem.empty()) best.problem = again.problem;
        else if (ratio(again) > ratio(best)) best = again;
        best.rounds = round;
    }
    best.verified_calls = verified;
    if (!best.problem.empty()) {
        fail(Failure::WrongResult, best.problem,
             "every call must compute its result from the input it is given, into the output it is given: no "
             "result kept from an earlier call, no work skipped at some sizes, no writes to the input");
    } else if (best.peer_ms / best.student_ms > kMaxRatioToPeer) {
        fail(Failure::ImplausibleMeasurement,
             "your code measured " + fixed(best.peer_ms / best.student_ms) + "x the speed of the library peer, which "
             "runs at the hardware's limit; no correct kernel gets beyond " + fixed(kMaxRatioToPeer) + "x");
    } else if (best.student_host_ms > 4.0 * best.student_ms + 0.5) {
        fail(Failure::ImplausibleMeasurement,
             "your calls took " + fixed(best.student_host_ms, 3) + " ms from launch to an idle device but only " +
                 fixed(best.student_ms, 3) + " ms between the timing events: work ran where the timer cannot see it "
                 "(another stream, or the host)");
    }
    return best;
}

/// @brief Records @p value against @p threshold, and fails the check as too slow when short of it (unless
/// the measurement itself already failed the check).
/// @param value the measured ratio (higher is faster)
/// @param threshold the least ratio that passes
/// @param unit printed after the figures, e.g. "x" or "x CUB"
/// @param what e.g. "fraction of cub::DeviceReduce::Sum"
/// @param detail the figures behind the ratio, for the report
/// @param hint what to try when the check fails
inline void judge_speed(double value, double threshold, const std::string& unit, const std::string& what,
                        const std::string& detail, const std::string& hint) {
    measured(value, threshold, unit);
    note(detail);
    if (current_check_failed()) return;
    if (!(value >= threshold))
        fail(Failure::TooSlow,
             what + " is " + fixed(value) + unit + ", needs at least " + fixed(threshold) + unit,
             hint);
}

}  // namespace grading
