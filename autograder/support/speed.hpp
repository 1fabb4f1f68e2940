/// @file speed.hpp
/// @brief Speed checks as ratios against a baseline and a library peer timed in the same run, where
/// every timed call of the student's code is verified.
///
/// Every call of the student's launcher, warm-ups and timed repetitions alike, gets fresh input: new
/// random contents, never seen before, in one of two buffers taken in turn, with its reference computed
/// (and the input fingerprinted) before the call; the output is poisoned. Afterwards, outside the timed
/// interval and with the whole device idle, the result is checked against that reference and the input
/// against its fingerprint. So a result cached by pointer, by size or by any sample of the input, work
/// skipped at the benchmark size, or an input used as scratch all fail as wrong results; a ratio no kernel
/// can reach, or work the timer could not see, fails as an implausible measurement.
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
#include <utility>
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
    int slots = 2;  ///< input buffers, used in turn, call by call
    /// @brief Before student call number @p call (from 0), outside the timed interval: fill buffer @p slot
    /// with fresh contents for this call, compute its reference, make it current (the student contender
    /// reads it) and poison the output.
    std::function<void(int slot, int call)> select;
    /// @brief After it, with the device idle: "" when the output matches the reference of buffer @p slot's
    /// contents and the input is unchanged, else what is wrong.
    std::function<std::string(int slot)> verify;
};

/// @brief The input buffers of a speed bench: @p count device arrays of @p n floats. refresh() gives one
/// fresh random contents (seeded by the run's seed, a tag and the call's number) and fingerprints it.
struct BenchInputs {
    std::vector<course::DeviceBuffer<float>> arrays;  ///< the buffers
    std::vector<std::uint64_t> prints;                ///< the fingerprint of each one's current contents
    std::size_t n = 0;                                ///< elements of each
    std::string tag;                                  ///< names the contents' seeds
    float lo = 0.0f;                                  ///< the least value any contents may hold
    float hi = 1.0f;                                  ///< the bound no value reaches

    /// @param n_ elements of each buffer
    /// @param tag_ names the contents' seeds (with seed_for)
    /// @param lo_ the least value any contents may hold
    /// @param hi_ the bound no value reaches
    /// @param count how many buffers
    BenchInputs(std::size_t n_, std::string tag_, float lo_, float hi_, int count = 2)
        : n(n_), tag(std::move(tag_)), lo(lo_), hi(hi_) {
        for (int i = 0; i < count; ++i) {
            arrays.emplace_back(n);
            prints.push_back(0);
            refresh(i, -1 - i);  // the first contents, for the correctness gate: no timed call sees them again
        }
    }
    /// @brief Fills buffer @p slot with the contents of call @p call (distinct for every call) and
    /// fingerprints it.
    void refresh(int slot, int call) {
        const auto i = static_cast<std::size_t>(slot);
        // Each call's values span a half of [lo, hi) that starts at a random place, so that results that
        // summarise the input (its sum, its maximum) differ from call to call, not only the elements.
        const std::uint64_t seed = seed_for(tag, static_cast<std::uint64_t>(call));
        const float from = lo + 0.5f * (hi - lo) * course::uniform_at(seed, ~0ull, 0.0f, 1.0f);
        course::fill_uniform_device(arrays[i].data(), n, seed, from, from + 0.5f * (hi - lo));
        prints[i] = fingerprint_on_device(arrays[i].data(), n * sizeof(float));
    }
    /// @brief Buffer @p slot.
    const float* operator[](int slot) const { return arrays[static_cast<std::size_t>(slot)].data(); }
    /// @brief "" when buffer @p slot is as refresh() left it, else a sentence saying the call changed it.
    std::string changed(int slot) const {
        const auto i = static_cast<std::size_t>(slot);
        if (fingerprint_on_device(arrays[i].data(), n * sizeof(float)) == prints[i]) return "";
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
    static int call = 0;  // counts on across rounds and checks: no call ever sees contents seen before
    int input = 0;
    opt.before_each = [&](std::size_t c) {
        if (c != 0) return;
        input = call % std::max(calls.slots, 1);
        calls.select(input, call);
    };
    opt.after_each = [&](std::size_t c) {
        if (c != 0) return;
        ++call;
        ++t.verified_calls;
        if (!t.problem.empty()) return;
        const std::string wrong = calls.verify(input);
        if (!wrong.empty())
            t.problem = "timed call " + std::to_string(t.verified_calls) + " of your code at the benchmark size: " + wrong;
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
