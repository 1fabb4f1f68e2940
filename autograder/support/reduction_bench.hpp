/// @file reduction_bench.hpp
/// @brief The speed bench of a lab whose launcher reduces an array of floats to one float (a sum, a
/// maximum): fresh inputs for every call, each one's reference from the lab's library peer, a correctness
/// gate at the benchmark size, and every timed call of the student's code verified (speed.hpp).
///
/// A lab describes its reduction in a small traits struct and hands it to ReductionBench; the lab's
/// checks keep their thresholds, hints and SharedSpeed accessor, and measure through
/// `grading::measure_bench<grading::ReductionBench<Traits>>`. The traits struct provides:
///
/// - `using Peer`: the library peer (e.g. a CUB wrapper), constructible from the element count and
///   callable as `peer(const float* d_in, float* d_out, std::size_t n)`;
/// - `static constexpr std::size_t kN`: the benchmark's element count;
/// - `static constexpr const char* kTag`: names the inputs' seeds (BenchInputs);
/// - `static constexpr float kLo, kHi`: the range the inputs' values are drawn from (BenchInputs);
/// - `static constexpr Plants kPlants`: values planted at random positions of every input, so that a
///   result computed from part of the input is wrong (BenchInputs);
/// - `static constexpr const char* kName`: the launcher's name in messages, e.g. "sum_reduce";
/// - `static void student(const float*, float*, std::size_t)`: calls the student's launcher;
/// - `static void baseline(const float*, float*, std::size_t)`: calls the naive baseline;
/// - `static constexpr const char* kBaselineOp, kPeerOp`: the baseline's and the peer's operations in the
///   lab's peer host (isolation.hpp), timed there through the same process boundary as the student's code;
/// - `static std::string check(float got, float reference)`: "" when the student's value @p got is
///   right for the peer's @p reference, else what is wrong (the lab's own tolerance and wording).
#pragma once

#include "grading.hpp"
#include "isolation.hpp"
#include "speed.hpp"

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "timer.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace grading {

/// @brief The shared set-up of a reduction lab's speed checks: Traits::kN floats in a buffer a slot
/// (bench_slots()), refilled with fresh contents
/// for every call of the student's and reduced by the peer first, the three contenders, and a correctness
/// gate. Built by measure_bench(), which reads `correct` and then calls measure().
/// @tparam Traits the lab's description of its reduction (see the file's description)
template <class Traits>
struct ReductionBench {
    /// @brief Elements of every input.
    static constexpr std::size_t kN = Traits::kN;

    /// @brief The technique in the timed calls themselves (speed.hpp, timed_counters.hpp): each block's
    /// warps store their partials into shared memory and one warp loads them back, in every call, timed or
    /// not. A call that keeps the GPU busy enough to pass the speed checks runs at least one block for
    /// every SM or two, each storing and loading at least once: at least kSharedPerSm wavefronts of each,
    /// per SM, per call. A call that reduces with shuffles and global atomics alone shows none. And in
    /// every block: kSharedPerBlock; for every warp but one a block: kSharedPerWarp.
    static TimedTechnique timed_technique() {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        const double floor = kSharedPerSm * sms;
        return {[floor](const timed_counters::Totals& t) {
                    return timed_counters::combined_shortfall(t, floor, kSharedPerBlock, kSharedPerWarp);
                },
                "in every call, timed or not, let each block's warps store their partials into a __shared__ array "
                "and one warp load them back and combine them"};
    }
    /// @brief The floor of timed_technique(): shared-memory load and store wavefronts a call, per SM.
    static constexpr double kSharedPerSm = 0.25;
    /// @brief ... and for each block launched (sm__ctas_launched): one warp loads the partials back, in one
    /// wavefront or more, after the warps stored them. The reference shows 1.00 loads and 8.4 stores a
    /// block on an H100; a kernel whose blocks combine in shared memory in some calls, or in some blocks,
    /// shows that share.
    static constexpr double kSharedPerBlock = 0.9;
    /// @brief ... and store wavefronts for each warp launched but one a block (sm__warps_launched_shader_cs,
    /// less the blocks): every warp but one a block hands its partial to another through shared memory, in
    /// a store of its own. The reference stores from every warp (1.2 for each of those, 8 warps a block);
    /// one that keeps warp 0's partial in registers shows 1.0; a block whose warps each add their own
    /// partial to the output with a global atomic, with one token store, shows 1 / (warps - 1).
    static constexpr double kSharedPerWarp = 0.75;
    /// @brief Input slots: each timed call of the student's reads its own.
    static int slot_count() { return bench_slots(kN * sizeof(float)); }

    BenchInputs inputs{kN, Traits::kTag, Traits::kLo, Traits::kHi, slot_count(), Traits::kPlants};  ///< the inputs
    std::vector<float> refs;                        ///< each input's reference, by the peer
    std::vector<course::GuardedBuffer<float>> student_out;  ///< the student's output a slot, poisoned before each call
    course::DeviceBuffer<float> out{1};             ///< the baseline's and the peer's output
    typename Traits::Peer peer{kN};                 ///< the library peer
    int current = 0;                                ///< the input of the student's next call (in this process)
    bool correct = false;                           ///< whether the gate passed (measure_bench() reads it)

    /// @brief Computes every input's reference, then runs the gate: one call of the student's on the first
    /// input, checked like every timed call. A wrong result fails the current check as a wrong result,
    /// and the speed is then not measured. Built by Started (measure_bench()), after its BenchStart.
    explicit ReductionBench(const BenchStart&) {
        for (int i = 0; i < slot_count(); ++i) {
            refs.push_back(reference(i));
            student_out.emplace_back(1);
        }
        if (!run_student([&] { Traits::student(inputs[0], student_out[0].data(), kN); },
                         std::string(Traits::kName) + "(" + n_str() + ")"))
            return;
        const std::string wrong = verify(0);
        correct = wrong.empty();
        if (!correct) fail(Failure::WrongResult, "at " + n_str() + ": " + wrong);
    }

    /// @brief The peer's result on input @p slot.
    /// @param slot the input
    float reference(int slot) {
        peer(inputs[slot], out.data(), kN);
        return out.download()[0];
    }

    /// @brief "" when the student's output of slot @p slot is right for that slot's input (Traits::check
    /// against its reference) and the input is unchanged, else what is wrong.
    /// @param slot the input the student's call read
    std::string verify(int slot) const {
        const auto i = static_cast<std::size_t>(slot);
        const std::string wrong = Traits::check(student_out[i].download()[0], refs[i]);
        if (!wrong.empty()) return wrong;
        return inputs.changed(slot);
    }

    /// @brief Times the student's launcher, the naive baseline and the peer (measure_against()): before
    /// every student call the input it reads gets fresh contents and a fresh reference, and its output is
    /// poisoned; after it, the result is verified.
    /// @param criteria the speed checks' criteria, in their order
    /// @return one Timings a criterion
    std::vector<Timings> measure(const std::vector<Criterion>& criteria) {
        const VerifiedCalls calls{slot_count(),
                                  [&](int slot, int call) {
                                      const auto i = static_cast<std::size_t>(slot);
                                      inputs.refresh(slot, call);
                                      refs[i] = reference(slot);
                                      current = slot;
                                      student_out[i].poison();
                                  },
                                  [&](int slot) { return verify(slot); }};
        if (isolation::enabled()) {
            // Every contender reads the slot's input and writes the slot's output, as many calls a batch.
            using isolation::Host;
            const Contenders across = {
                {[&](int s) { Traits::student(inputs[s], student_out[static_cast<std::size_t>(s)].data(), kN); },
                 Host::Student, [&](int s) -> const void* { return student_out[static_cast<std::size_t>(s)].data(); },
                 sizeof(float)},
                {[&](int s) { isolation::forward(Host::Peers, Traits::kBaselineOp, inputs[s], out.data(), kN); },
                 Host::Peers, [&](int) -> const void* { return out.data(); }, sizeof(float)},
                {[&](int s) { isolation::forward(Host::Peers, Traits::kPeerOp, inputs[s], out.data(), kN); },
                 Host::Peers, [&](int) -> const void* { return out.data(); }, sizeof(float), true}};
            return measure_against(across, criteria, calls);
        }
        return measure_against([&] { Traits::student(inputs[current], student_out[static_cast<std::size_t>(current)].data(), kN); },
                               [&] { Traits::baseline(inputs[0], out.data(), kN); },
                               [&] { peer(inputs[0], out.data(), kN); }, criteria, calls);
    }

    /// @brief The figures behind a speed check's ratio, for its report: each contender's bandwidth over
    /// the input's bytes, e.g. "n = 2^28: yours 2990 GB/s, naive 810 GB/s, CUB 3000 GB/s (medians, 1
    /// round(s))".
    /// @param t the timings of the check's criterion
    static std::string figures(const Timings& t) {
        const double bytes = static_cast<double>(kN) * sizeof(float);
        return size_label() + ": yours " + fixed(course::gb_per_s(bytes, t.student_ms), 0) + " GB/s, naive " +
               fixed(course::gb_per_s(bytes, t.baseline_ms), 0) + " GB/s, CUB " +
               fixed(course::gb_per_s(bytes, t.peer_ms), 0) + " GB/s (medians, " + std::to_string(t.rounds) +
               " round(s))";
    }

private:
    /// @brief "n = " and the element count, as the gate's messages name the size.
    static std::string n_str() { return "n = " + std::to_string(kN); }

    /// @brief The size as the figures name it: "n = 2^k" for a power of two, else as n_str().
    static std::string size_label() {
        if (kN == 0 || (kN & (kN - 1)) != 0) return n_str();
        int k = 0;
        while ((std::size_t(1) << k) != kN) ++k;
        return "n = 2^" + std::to_string(k);
    }
};

}  // namespace grading
