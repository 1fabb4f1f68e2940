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
#include "isolation.hpp"
#include "verify.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "random.hpp"
#include "timer.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <type_traits>
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
    /// @brief Across the process boundary: the contender (0 yours, 1 the baseline, 2 the peer) whose output
    /// changed after the clock stopped, in the first run where one did (its process answered early).
    std::optional<std::size_t> late_output;
    /// @brief Across the process boundary: why the GPU never became free of other processes' work before a
    /// batch, or why its performance monitors could not be sampled ("" when all went well;
    /// isolation::GpuLeftBusy, timed_counters::CountersTaken).
    std::string gpu_left_busy;
    /// @brief Across the process boundary: what the GPU's performance monitors counted while the student's
    /// timed batches ran (timed_counters.hpp; windows = 0 when they were not sampled).
    timed_counters::Totals counters;
};

/// @brief A lab's judgment of what the GPU's performance monitors counted while its speed checks' timed
/// calls ran (timed_counters.hpp): the technique, seen on the calls that are timed and on nothing else.
struct TimedTechnique {
    /// @brief "" when the counts show the technique, else what they show instead.
    std::function<std::string(const timed_counters::Totals&)> judge;
    std::string hint;  ///< what to do when they do not
};

/// @brief The lab's TimedTechnique, set before its speed bench measures (none: nothing is judged).
inline TimedTechnique& timed_technique() {
    static TimedTechnique rule;
    return rule;
}

/// @brief Judges @p t, the counts of all the timed batches of a speed bench, by timed_technique(); a
/// technique not seen fails the current check as technique_not_used. Where the monitors cannot be read,
/// says so in a note and judges nothing.
/// @p rounds: the counters of each round of the measurement, in order, when it was measured more than once
/// (a near miss): each round is judged on its own as well, since the round whose ratio is kept must show
/// the technique by itself, and counters added over rounds would let an honest, slowed first round pay
/// for a second without it (Lab 01 attack45_counters_averaged_over_rounds).
inline void judge_timed_technique(const timed_counters::Totals& t, const std::vector<timed_counters::Totals>& rounds = {}) {
    const TimedTechnique& rule = timed_technique();
    if (!rule.judge) return;
    if (!timed_counters::available()) {
        note("the technique of the timed calls is not judged here: " +
             (timed_counters::unavailable_reason().empty() ? std::string("no performance monitors")
                                                           : timed_counters::unavailable_reason()));
        return;
    }
    if (t.windows <= 0) return;
    if (!t.counted_work()) {
        note("the GPU's performance monitors counted no work while your timed calls ran (another profiler may have "
             "held them): the technique of the timed calls is not judged");
        return;
    }
    note("your timed calls, counted by the GPU's performance monitors while they ran: " + t.describe());
    if (current_check_failed()) return;
    std::string wrong = rule.judge(t);
    for (std::size_t r = 0; wrong.empty() && rounds.size() > 1 && r < rounds.size(); ++r) {
        if (rounds[r].windows <= 0 || !rounds[r].counted_work()) continue;
        const std::string alone = rule.judge(rounds[r]);
        if (!alone.empty())
            wrong = "in round " + std::to_string(r + 1) + " of " + std::to_string(rounds.size()) +
                    " of the measurement, counted on its own (every round must show the technique): " + alone;
    }
    if (!wrong.empty())
        fail(Failure::TechniqueNotUsed,
             "the GPU's performance monitors, sampled while your timed calls at the benchmark size ran: " + wrong,
             rule.hint);
}

/// @brief The three contenders of a speed check: yours, the naive baseline and the library peer, in
/// that order (isolation::Contender: where each runs and the output sampled at the end of its run).
using Contenders = std::vector<isolation::Contender>;

/// @brief The most a memory- or compute-bound kernel can beat the library peer by before the measurement
/// is not believed: the peers (CUB, cuBLAS, cudaMemcpy) run at the hardware's limit.
inline constexpr double kMaxRatioToPeer = 1.15;

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
    /// @brief What the student's process is told again, before its calls, when it was started anew for a
    /// second timing (isolation::blamed_twice): the lab's state that its calls read, which the gate's call
    /// set in the process before (Lab 05: the filter). Empty: none.
    std::function<void()> prepare;
    /// @brief The most the student may measure against the library peer before the measurement is not
    /// believed (kMaxRatioToPeer where the peer runs at the hardware's limit). A lab whose peer is bound by
    /// something a better kernel avoids sets its own, from the hardware's limit: Lab 07's histogram, where
    /// CUB is bound by its shared-memory atomics at 2 to 3 times the time of reading its input.
    double max_ratio_to_peer = kMaxRatioToPeer;
};

/// @brief Values planted at random positions of every contents of a BenchInputs, over its uniform values,
/// so that the result depends on elements a shortcut would skip: a kernel that reads a sample of the input
/// (and scales it up) misses most of them, and its result misses by more than the check's tolerance.
struct Plants {
    int count = 0;  ///< how many positions get one (0: none)
    float lo = 0.0f;  ///< each planted value is drawn from [lo, hi) ...
    float hi = 0.0f;  ///< ... (the bound no planted value reaches)
    /// @brief ... offset by the contents' upper bound when set: with lo >= 0, every planted value is above
    /// every other element.
    bool above_top = false;
};

/// @brief The input buffers of a speed bench: @p count device arrays of @p n floats. refresh() gives one
/// fresh random contents (seeded by the run's seed, a tag and the call's number) and fingerprints it.
struct BenchInputs {
    std::vector<course::DeviceBuffer<float>> arrays;  ///< the buffers
    std::vector<std::uint64_t> prints;                ///< the fingerprint of each one's current contents
    std::size_t n = 0;                                ///< elements of each
    std::string tag;                                  ///< names the contents' seeds
    float lo = 0.0f;                                  ///< the least value any contents may hold
    float hi = 1.0f;                                  ///< the bound no uniform value reaches
    Plants plants;                                    ///< values planted over the uniform ones

    /// @param n_ elements of each buffer
    /// @param tag_ names the contents' seeds (with seed_for)
    /// @param lo_ the least value any contents may hold
    /// @param hi_ the bound no uniform value reaches
    /// @param count how many buffers
    /// @param plants_ values planted at random positions of every contents
    BenchInputs(std::size_t n_, std::string tag_, float lo_, float hi_, int count = 2, Plants plants_ = {})
        : n(n_), tag(std::move(tag_)), lo(lo_), hi(hi_), plants(plants_) {
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
        const float top = from + 0.5f * (hi - lo);
        course::fill_uniform_device(arrays[i].data(), n, seed, from, top);
        for (int k = 0; k < plants.count && n > 0; ++k) {
            const std::uint64_t draw = course::hash64(seed, 0x91a7ull + static_cast<std::uint64_t>(k));
            const std::size_t at = static_cast<std::size_t>(draw % n);
            const float v = (plants.above_top ? top : 0.0f) +
                            course::uniform_at(seed, (~0ull) - 1 - static_cast<std::uint64_t>(k), plants.lo, plants.hi);
            CUDA_CHECK(cudaMemcpy(arrays[i].data() + at, &v, sizeof v, cudaMemcpyHostToDevice));
        }
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

/// @brief Input slots of a speed bench, each holding @p slot_bytes of inputs and outputs: 2, used in turn,
/// where the lab's code runs in this process; where it runs in a process of its own, every timed run is a
/// batch of one call a slot, sent across the boundary at once (isolation::Batch), so that the boundary's
/// cost is shared among them: @p most slots, or as many as a quarter of the GPU's memory holds (at least 2).
/// Decided from the GPU's total memory, which no code can change.
inline int bench_slots(std::size_t slot_bytes, int most = 8) {
    if (!isolation::enabled()) return 2;
    static const std::size_t total = [] {
        std::size_t free_bytes = 0, total_bytes = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        return total_bytes;
    }();
    const std::size_t fit = slot_bytes ? total / 4 / slot_bytes : 8;
    return static_cast<int>(std::clamp<std::size_t>(fit, 2, static_cast<std::size_t>(std::max(most, 2))));
}

/// @brief Where the lab's code runs in a process of its own, ends that process: a speed bench calls it first,
/// so that its calls (the gate's and the timed ones) run in a new process, with nothing the checks before
/// left there (isolation::restart()).
inline void fresh_student_process() {
    if (isolation::enabled()) isolation::restart(isolation::Host::Student);
}

/// @brief How every speed bench starts: the GPU to this grading alone (GpuAlone) for the bench's whole life
/// (its buffers, which a quarter of the GPU's memory may hold and which another grading's inputs past 2^31
/// elements must find free, its references, its gate and its timed calls), and in it the student's process
/// started anew (fresh_student_process()). The process starts inside: one started before, beside other
/// gradings, would be alive, with whatever it queued on the GPU, while this grading waits for another's
/// measurement to end. Only Started makes one, and a bench's constructor takes it as its first argument:
/// a bench cannot be built without it.
class BenchStart {
    template <class Bench>
    friend class Started;
    BenchStart() = default;
    GpuAlone alone_;
    struct Restarted {
        Restarted() {
            fresh_student_process();
            if (isolation::enabled()) isolation::start_host(isolation::Host::Student);
        }
    } restarted_;

public:
    BenchStart(const BenchStart&) = delete;
    BenchStart& operator=(const BenchStart&) = delete;
};

/// @brief A lab's speed bench of type @p Bench, built after its BenchStart and ended before it (the GPU is
/// this grading's alone for as long as the bench lives). @p Bench's constructor takes the BenchStart first,
/// then @p Args.
template <class Bench>
class Started {
    BenchStart start_;  // first: constructed before the bench, destroyed after it

public:
    Bench bench;  ///< the bench
    /// @brief Starts (BenchStart), then constructs the bench from it and @p args.
    template <class... Args>
    explicit Started(Args&&... args) : bench(start_, std::forward<Args>(args)...) {}
    /// @brief The bench.
    Bench* operator->() { return &bench; }
};

/// @brief The number of the student's next timed call, which seeds its input: it counts on across rounds
/// and checks, so that no call ever sees contents seen before.
inline int& timed_call_number() {
    static int call = 0;
    return call;
}

/// @brief Set by a lab's profile workload (run under Nsight Compute): the speed benches then make, after
/// their correctness gate, one batch of the student's calls as a timed run makes it (every input slot once,
/// fresh contents, each result verified), and time nothing.
inline bool& profile_timed_calls() {
    static bool on = false;
    return on;
}

/// @brief What a speed bench does in the profile workload (profile_timed_calls()): the student's calls of
/// one timed batch, on the same inputs as a graded run's first batch, sent as that batch is, and verified.
inline void profile_batch(const Contenders& contenders, const VerifiedCalls& calls) {
    int& call = timed_call_number();
    const bool ok = run_guarded(
        [&] {
            std::optional<isolation::Batch> batch;
            if (isolation::enabled()) batch.emplace(contenders[0].host);
            for (int s = 0; s < calls.slots; ++s) {
                calls.select(s, call + s);
                contenders[0].run(s);
            }
            if (batch) batch->send();
            CUDA_CHECK(cudaDeviceSynchronize());
        },
        "a batch of " + std::to_string(calls.slots) + " calls at the benchmark size");
    if (!ok) return;
    for (int s = 0; s < calls.slots; ++s)
        if (const std::string wrong = calls.verify(s); !wrong.empty()) {
            fail(Failure::WrongResult, "call " + std::to_string(s + 1) + " of a batch at the benchmark size: " + wrong);
            return;
        }
    call += calls.slots;
}

/// @brief Times student, baseline and peer round-robin and returns their medians; every student call is
/// selected and verified through @p calls. Where the lab's code runs in a process of its own
/// (isolation.hpp), all three are timed across the same boundary, a batch of `calls.slots` calls a run
/// (isolation::time_across()); else with events in this process, one call a run.
inline Timings time_contenders(const Contenders& contenders, const VerifiedCalls& calls) {
    // One warm-up batch a contender, then 9 timed ones: medians of 9 interleaved batches of 8 calls each (a
    // near miss is measured again, measure_against()); the GPU is this grading's alone meanwhile.
    const int warmup = 1, repetitions = quick() ? 5 : 9;
    Timings t;
    int& call = timed_call_number();
    const auto select = [&](int slot) { calls.select(slot, call); };
    const auto verify = [&](int slot) {
        ++call;
        ++t.verified_calls;
        if (!t.problem.empty()) return;
        const std::string wrong = calls.verify(slot);
        if (!wrong.empty())
            t.problem = "timed call " + std::to_string(t.verified_calls) + " of your code at the benchmark size: " + wrong;
    };
    if (isolation::enabled()) {
        double boundary = 0.0;
        // Every contender's batch starts as the student's does, right after the check program refilled the
        // inputs it reads (the GPU's switch from a context that just worked costs the batch after it): the
        // baseline's and the peer's contents are drawn from calls numbered apart from the student's.
        static int other = 1 << 30;
        std::vector<std::vector<double>> s;
        std::vector<timed_counters::Totals> counted;
        try {
            s = isolation::blamed_twice(
                [&] {
                    counted.clear();
                    return isolation::time_across(
                        contenders, calls.slots, warmup, repetitions,
                        [&](std::size_t c, int slot) {
                            if (c == 0) select(slot);
                            else calls.select(slot, other++);
                        },
                        [&](std::size_t c, int slot) {
                            if (c == 0) verify(slot);
                        },
                        &t.late_output, &boundary, timed_technique().judge ? &counted : nullptr);
                },
                [&] {
                    if (calls.prepare) calls.prepare();
                });
        } catch (const isolation::GpuLeftBusy& e) {
            t.gpu_left_busy = e.what();
            t.student_ms = t.baseline_ms = t.peer_ms = t.student_host_ms = 1.0;  // judged on the message alone
            return t;
        } catch (const timed_counters::CountersTaken& e) {
            t.gpu_left_busy = std::string(e.what()) + ", though they could at the start: something else took them";
            t.student_ms = t.baseline_ms = t.peer_ms = t.student_host_ms = 1.0;
            return t;
        }
        if (!counted.empty()) t.counters = counted[0];
        note("timed across the process boundary in batches of " + std::to_string(calls.slots) +
             " calls; what the boundary adds to a call, " + fixed(boundary * 1000.0, 1) +
             " us (learnt from the peers' calls), is taken off every contender's time");
        t.student_ms = course::median(s[0]);
        t.baseline_ms = course::median(s[1]);
        t.peer_ms = course::median(s[2]);
        t.student_host_ms = t.student_ms;  // the boundary's clock is the host's: nothing runs unseen by it
        t.rounds = 1;
        return t;
    }
    int input = 0;
    course::BenchOptions opt;
    opt.warmup = warmup;
    opt.repetitions = repetitions;
    opt.before_each = [&](std::size_t c) {
        if (c != 0) return;
        input = call % std::max(calls.slots, 1);
        select(input);
    };
    opt.after_each = [&](std::size_t c) {
        if (c == 0) verify(input);
    };
    std::vector<std::vector<double>> host;
    opt.host_ms = &host;
    const auto s = course::time_interleaved({[&] { contenders[0].run(input); }, [&] { contenders[1].run(input); },
                                             [&] { contenders[2].run(input); }},
                                            opt);
    t.student_ms = course::median(s[0]);
    t.baseline_ms = course::median(s[1]);
    t.peer_ms = course::median(s[2]);
    t.student_host_ms = course::median(host[0]);
    t.rounds = 1;
    return t;
}

/// @brief The contenders of a lab whose code runs in this process: three functions, timed with events.
inline Contenders in_process(const std::function<void()>& student, const std::function<void()>& baseline,
                             const std::function<void()>& peer) {
    const auto none = [](int) -> const void* { return nullptr; };
    return {{[student](int) { student(); }, isolation::Host::Student, none, 0},
            {[baseline](int) { baseline(); }, isolation::Host::Peers, none, 0},
            {[peer](int) { peer(); }, isolation::Host::Peers, none, 0, true}};
}

/// @brief What one speed check judges: a ratio of the timings (higher is faster) and the least value that
/// passes.
struct Criterion {
    std::function<double(const Timings&)> ratio;  ///< e.g. peer_ms / student_ms
    double threshold = 0.0;                       ///< the least ratio that passes
};

/// @brief Measures once for every criterion of @p criteria, and when a criterion's ratio falls short of
/// its threshold by less than 15%, measures again (up to three rounds in all), keeping for each criterion
/// the round with its best ratio: noise can make a right kernel look slow, never fast, so a near miss
/// earns a second look before it fails. Returns one Timings a criterion, in their order. A wrong result in
/// any timed call fails the current check as a wrong result; a ratio to the peer above kMaxRatioToPeer, or
/// student work the events did not see, as an implausible measurement.
inline std::vector<Timings> measure_against(const Contenders& contenders, const std::vector<Criterion>& criteria,
                                            const VerifiedCalls& calls) {
    if (profile_timed_calls()) {
        profile_batch(contenders, calls);
        return {};
    }
    const auto left_busy = [](const Timings& t) {
        if (t.gpu_left_busy.empty()) return false;
        fail(Failure::ImplausibleMeasurement, t.gpu_left_busy,
             "return from your launcher only when its work is done, and leave nothing running between calls: no "
             "threads, no other streams or processes working on their own");
        return true;
    };
    const Timings first = time_contenders(contenders, calls);
    if (left_busy(first)) return std::vector<Timings>(criteria.size(), first);
    std::vector<Timings> best(criteria.size(), first);
    std::string problem = first.problem;
    std::optional<std::size_t> late = first.late_output;
    timed_counters::Totals counted = first.counters;
    std::vector<timed_counters::Totals> per_round{first.counters};
    int verified = first.verified_calls, rounds = 1;
    auto near_miss = [&] {
        for (std::size_t i = 0; i < criteria.size(); ++i) {
            const double r = criteria[i].ratio(best[i]), t = criteria[i].threshold;
            if (r < t && r >= 0.85 * t) return true;
        }
        return false;
    };
    for (; problem.empty() && rounds < 3 && near_miss();) {
        const Timings again = time_contenders(contenders, calls);
        if (left_busy(again)) return std::vector<Timings>(criteria.size(), again);
        ++rounds;
        verified += again.verified_calls;
        counted += again.counters;
        per_round.push_back(again.counters);
        if (!again.problem.empty()) problem = again.problem;
        if (again.late_output && !late) late = again.late_output;
        else
            for (std::size_t i = 0; i < criteria.size(); ++i)
                if (criteria[i].ratio(again) > criteria[i].ratio(best[i])) best[i] = again;
    }
    for (auto& b : best) {
        b.rounds = rounds;
        b.verified_calls = verified;
        b.problem = problem;
    }
    if (!problem.empty()) {
        fail(Failure::WrongResult, problem,
             "every call must compute its result from the input it is given, into the output it is given: no "
             "result kept from an earlier call, no work skipped at some sizes, no writes to the input");
        return best;
    }
    if (late) {
        const char* who[] = {"your code's process", "the baseline's process", "the peer's process"};
        fail(Failure::ImplausibleMeasurement,
             std::string(who[std::min<std::size_t>(*late, 2)]) +
                 " reported its call finished while the output was still changing: the grader's clock stopped "
                 "at a result that was not yet the one it verified",
             "return from your launcher only when its work is done: launch on the default stream, and let the "
             "grader wait for the device");
        return best;
    }
    // Every round a criterion is judged on must be believable, not only the first criterion's.
    for (const Timings& b : best) {
        if (b.peer_ms / b.student_ms > calls.max_ratio_to_peer) {
            fail(Failure::ImplausibleMeasurement,
                 "your code measured " + fixed(b.peer_ms / b.student_ms) + "x the speed of the library peer; from the "
                 "hardware's limit, no correct kernel gets beyond " + fixed(calls.max_ratio_to_peer) + "x");
            break;
        }
        if (b.student_host_ms > 4.0 * b.student_ms + 0.5) {
            fail(Failure::ImplausibleMeasurement,
                 "your calls took " + fixed(b.student_host_ms, 3) + " ms from launch to an idle device but only " +
                     fixed(b.student_ms, 3) + " ms between the timing events: work ran where the timer cannot see "
                     "it (another stream, or the host)");
            break;
        }
    }
    judge_timed_technique(counted, per_round);
    return best;
}

/// @brief measure_against() for a lab whose code runs in this process: three functions, timed with events.
inline std::vector<Timings> measure_against(const std::function<void()>& student, const std::function<void()>& baseline,
                                            const std::function<void()>& peer, const std::vector<Criterion>& criteria,
                                            const VerifiedCalls& calls) {
    return measure_against(in_process(student, baseline, peer), criteria, calls);
}

/// @brief measure_against() with one criterion: its ratio and threshold.
inline Timings measure_against(const std::function<void()>& student, const std::function<void()>& baseline,
                               const std::function<void()>& peer, const std::function<double(const Timings&)>& ratio,
                               double threshold, const VerifiedCalls& calls) {
    const auto all = measure_against(student, baseline, peer, {Criterion{ratio, threshold}}, calls);
    return all.empty() ? Timings{} : all.front();  // empty in the profile workload (nothing timed)
}

/// @brief The speed checks of a lab that share one bench, measured once. The first of them to ask sets the
/// bench up (with its correctness gate at the benchmark size) and times the contenders against every
/// check's criterion; the others judge their own criterion from the same rounds. Whatever failure the
/// set-up or the measurement recorded in the first check is recorded again in each later one, as if each
/// had measured alone. Hold it in a function-local static, so that it is measured on first use.
class SharedSpeed {
public:
    /// @brief What measures: sets the bench up and returns one Timings a criterion (measure_against()), or
    /// nothing when the gate failed (with the failure recorded in the current check).
    using Measure = std::function<std::optional<std::vector<Timings>>()>;

    /// @param measure sets up and measures; called once, by the first check that asks
    explicit SharedSpeed(Measure measure) : measure_(std::move(measure)) {}

    /// @brief The timings for criterion @p i, or nullptr when the check cannot be judged; any failure
    /// recorded while measuring is then (also) recorded in the current check.
    const Timings* timings(std::size_t i) {
        if (!measured_) {
            measured_ = true;
            // The timed calls run the student's code outside run_student(): an exception from it (a
            // throw, a refused launch) or a crashed kernel ends the measurement here, recorded as the
            // gate's failures are (run_guarded; a lost CUDA context ends the process), so that the later
            // checks record it too instead of finding nothing to judge.
            run_guarded([&] { result_ = measure_(); }, "your code, called by the speed bench");
            failure_ = current_failure();
            if (!result_ && !failure_) {
                fail(Failure::Crash, "the speed bench did not finish");
                failure_ = current_failure();
            }
        } else if (failure_) {
            fail(failure_->cls, failure_->message, failure_->hint);
        }
        if (!result_ || i >= result_->size()) return nullptr;
        return &(*result_)[i];
    }

private:
    Measure measure_;
    bool measured_ = false;
    std::optional<std::vector<Timings>> result_;
    std::optional<RecordedFailure> failure_;
};

/// @brief The usual criterion of a check against the naive baseline: the speed-up over it.
inline double speedup_over_baseline(const Timings& t) { return t.baseline_ms / t.student_ms; }

/// @brief The usual criterion of a check against the library peer: the fraction of its speed.
inline double fraction_of_peer(const Timings& t) { return t.peer_ms / t.student_ms; }

/// @brief Whether a lab's bench type @p Bench names the technique its timed calls must show, as
/// `static TimedTechnique timed_technique()` (measure_bench() then sets timed_technique() from it).
template <class Bench, class = void>
struct HasTimedTechnique : std::false_type {};
/// @brief HasTimedTechnique for a bench type that has timed_technique().
template <class Bench>
struct HasTimedTechnique<Bench, std::void_t<decltype(Bench::timed_technique())>> : std::true_type {};

/// @brief A TimedTechnique that needs, in the timed calls, shared-memory load wavefronts of at least
/// @p loads and store wavefronts of at least @p stores for each warp-level memory instruction: staged through
/// shared memory (a tile stored once and read back), not served from global memory, L1 or registers alone.
/// And, for each call, at least @p call_loads load and @p call_stores store wavefronts, the least that
/// @p need (what the floor stands for, timed_counters::per_call_shortfall) puts through shared memory.
inline TimedTechnique staged_through_shared(double loads, double stores, const std::string& hint, double call_loads = 0,
                                            double call_stores = 0, const std::string& need = "") {
    return {[=](const timed_counters::Totals& t) {
                std::string wrong = timed_counters::staged_shortfall(t, loads, stores);
                if (wrong.empty() && (call_loads > 0 || call_stores > 0))
                    wrong = timed_counters::per_call_shortfall(t, call_loads, call_stores, need);
                return wrong;
            },
            hint};
}

/// @brief A SharedSpeed::Measure for a lab's bench type @p Bench: starts it (Started; the constructor runs the
/// correctness gate and sets `correct`) and, when the gate passed, returns `bench.measure(criteria)`. A
/// bench type with a timed_technique() sets the lab's TimedTechnique first.
template <class Bench>
SharedSpeed::Measure measure_bench(std::vector<Criterion> criteria) {
    return [criteria = std::move(criteria)]() -> std::optional<std::vector<Timings>> {
        if constexpr (HasTimedTechnique<Bench>::value) timed_technique() = Bench::timed_technique();
        Started<Bench> started;
        if (!started->correct) return std::nullopt;
        return started->measure(criteria);
    };
}

/// @brief In a lab's profile workload: what the speed checks of bench type @p Bench make first in a graded
/// run (its correctness gate's call in a new process, then one batch, profile_batch()), ended as one call
/// of the workload named @p what (profile_call_done()). Nothing more when a call failed.
template <class Bench>
void profile_bench_calls(const std::string& what) {
    profile_timed_calls() = true;
    if (!measure_bench<Bench>({})() || current_check_failed()) return;
    profile_call_done(what);
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
