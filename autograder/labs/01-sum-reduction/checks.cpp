// Lab 01 checks — sum reduction. One TEST_CASE per rubric item (autograder/rubric.json).
//
// Correctness comes first and is exact where it can be: integer-valued inputs have an exact
// float sum in any order, so any difference is a bug, not rounding. Speed is judged only as
// ratios to the naive baseline and to cub::DeviceReduce::Sum, timed interleaved in this run.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "sum_reduction.cuh"

#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"
#include "kernel_trace.hpp"
#include "guarded_buffer.hpp"
#include "hints.hpp"
#include "huge_input.hpp"
#include "random.hpp"
#include "residues.hpp"
#include "reduction_bench.hpp"
#include "speed.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using grading::Failure;

namespace {

// Speed thresholds, calibrated on an NVIDIA H100 80GB HBM3 (see the lab's README for the figures
// and margins): the reference solution must clear each by at least 25%, the naive baseline must not.
constexpr double kMinSpeedupOverNaive = 2.5;  // naive_sum time / student time
constexpr double kMinFractionOfCub = 0.70;    // CUB time / student time

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("speed: faster than the one-element-per-thread baseline", kMinSpeedupOverNaive);
GRADING_THRESHOLD("speed: close to cub::DeviceReduce::Sum", kMinFractionOfCub);
constexpr std::size_t kBenchN = std::size_t(1) << 28;  // 1 GiB of floats: far larger than any L2

const std::vector<std::size_t> kEdgeSizes = {1, 31, 32, 33, 255, 256, 257, 1000, (1u << 20) + 1, (1u << 26) + 5};

// The widths whose remainders a kernel's paths depend on: float2 (2), float4 (4), two float4 a thread (8),
// 16, a warp's 32 lanes, 64. residues.hpp derives one size for each residue mod their lcm (64), so every
// tail a vector loop can leave is tried: n = 64 * base + r for every r, the bases taking turns (one block,
// a few blocks, past one pass of a 4 x float4 unrolled loop).
const std::vector<std::size_t> kResidueWidths = {2, 4, 8, 16, 32, 64};
// The sizes of the exact checks: the edge sizes, the residue sizes and the sizes at the edges of whole
// chunks of 2^7 to 2^16 elements (a count of whole chunks, a block's share or a persistent block's step,
// rounded the wrong way reads past n or drops the last elements only that close to a multiple of the
// chunk), the largest edge size last.
const std::vector<std::size_t> kExactSizes = grading::exact_sizes_1d(kEdgeSizes, kResidueWidths, {0, 3, 17, 70});

std::string n_str(std::size_t n) { return "n = " + std::to_string(n); }

// Runs the student's sum on @p host; nullopt when it failed (the failure is recorded).
std::optional<float> student_sum(const std::vector<float>& host) {
    const auto in = course::upload_with_poisoned_tail(host);  // NaN after the end: an over-read shows
    course::GuardedBuffer<float> out(1);  // poisoned: an unwritten result reads back as NaN
    const std::string what = "sum_reduce(" + n_str(host.size()) + ")";
    if (!grading::run_student([&] { lab01::sum_reduce(in.data(), out.data(), host.size()); }, what))
        return std::nullopt;
    if (const auto v = out.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe());
        return std::nullopt;
    }
    return out.download()[0];
}

// Integer values whose magnitudes add up to less than 2^24 (see the exactness argument in the check
// below): in [-8, 8] up to 2^21 elements; beyond, in [-1, 1], with one element in ceil(n / 2^24) kept,
// so that even the largest input is dense (a quarter of its elements at n = 2^26), not mostly zeros.
std::vector<float> integer_input(std::size_t n, std::uint64_t seed) {
    const bool small = n <= (std::size_t(1) << 21);
    std::vector<float> v = course::integer_floats(n, seed, small ? -8 : -1, small ? 8 : 1);
    const std::uint64_t keep_one_in = small ? 1 : course::ceil_div(n, std::size_t(1) << 24);
    if (keep_one_in > 1)
        for (std::size_t i = 0; i < n; ++i)
            if (course::hash64(seed ^ 0x5A5A5A5Aull, i) % keep_one_in != 0) v[i] = 0.0f;
    return v;
}

void report_wrong(const std::vector<grading::SizeOutcome>& outcomes, const std::string& details) {
    grading::fail(Failure::WrongResult, details, grading::size_pattern_hint(outcomes, lab01::kBlockSize));
}

}  // namespace

TEST_CASE("exact sum of integer-valued inputs at edge sizes" * doctest::test_suite("measured")) {
    // Every partial sum of integers whose magnitudes add up to less than 2^24 is itself an integer
    // below 2^24, which a float represents exactly. So whatever order the kernel adds in, the
    // result must equal the true sum exactly; any difference is a lost, doubled or raced element.
    // Every residue mod 64 is among the sizes (kExactSizes), so a tail path of any vector width is run.
    // With the instructor's secret, three hidden sizes join them (new in every run).
    std::vector<grading::SizeOutcome> outcomes;
    std::string details;
    // And 16 sizes drawn from the run's seed, new in every run: a bug at a remainder of a block's chunk
    // (thousands of elements) that no listed size has is met at once unless 16 draws all miss it.
    for (std::size_t n : grading::with_hidden(grading::with_random(kExactSizes, "lab01-exact", 16, 4096, std::size_t(1) << 22),
                                              "lab01-exact", 3, 2, std::size_t(1) << 22)) {
        const auto host = integer_input(n, grading::seed_for("lab01-integers", n));
        double exact = 0.0, magnitude = 0.0;
        for (float x : host) exact += x, magnitude += std::fabs(x);
        REQUIRE_MESSAGE(magnitude < 16777216.0, "grader input too large for an exact float sum");
        const auto got = student_sum(host);
        if (!got) return;
        bool ok = static_cast<double>(*got) == exact;
        if (ok && n == kExactSizes.back()) {
            // Same input again: a race shows up as a result that changes between runs.
            const auto again = student_sum(host);
            if (!again) return;
            if (*again != *got) {
                grading::fail(Failure::WrongResult,
                              n_str(n) + ": two runs on the same input gave " + std::to_string(*got) + " and " +
                                  std::to_string(*again),
                              "the result changes between runs on the same input: a race — a missing "
                              "__syncthreads() between writing and reading shared memory?");
                return;
            }
        }
        outcomes.push_back({n, ok});
        if (!ok && details.size() < 400)
            details += (details.empty() ? "" : "; ") + n_str(n) + ": got " + grading::fixed(*got, 1) + ", expected " +
                       grading::fixed(exact, 1);
    }
    if (!details.empty()) {
        report_wrong(outcomes, details);
        return;
    }
    // Beyond 2^31 elements, where an `int` index wraps, and beyond 2^32, where an `unsigned` one does:
    // zeros with ones on both sides of the boundary and at the ends, so any element skipped or read twice
    // changes the (exact) count.
    // With the GPU alone: they were sized by its free memory, which must be free for them now too.
    const grading::GpuAlone alone;
    for (const std::size_t n : {grading::kHugeN, grading::kHugerN}) {
        const std::size_t edge = std::size_t(1) << (n == grading::kHugeN ? 31 : 32);
        const std::vector<std::pair<std::size_t, float>> ones = {{0, 1.0f},    {edge - 2, 1.0f}, {edge - 1, 1.0f},
                                                                 {edge, 1.0f}, {edge + 1, 1.0f}, {n - 1, 1.0f}};
        const auto huge = grading::huge_input(n, 0, ones);
        if (!huge) {
            if (grading::current_check_failed()) return;
            continue;
        }
        course::GuardedBuffer<float> out(1);
        const std::string what = "sum_reduce(n = " + grading::huge_label(n) + ")";
        if (!grading::run_student([&] { lab01::sum_reduce(huge->data(), out.data(), n); }, what)) return;
        if (const auto v = out.check_guards()) {
            grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe());
            return;
        }
        const float got = out.download()[0];
        if (got != static_cast<float>(ones.size())) {
            grading::fail(Failure::WrongResult,
                          "n = " + grading::huge_label(n) + " (zeros with six ones, four of them around index " +
                              (n == grading::kHugeN ? "2^31" : "2^32") + "): got " + grading::fixed(got, 1) +
                              ", expected " + std::to_string(ones.size()),
                          grading::kHugeIndexHint);
            return;
        }
    }
}

TEST_CASE("sum of random floats within the rounding bound") {
    // Inputs uniform in [-1, 1); reference summed in double. Any summation order of depth d has a
    // rounding error below about lambda * sqrt(d) * u * sum|x_i| with overwhelming probability
    // (Higham & Mary, "A new approach to probabilistic rounding error analysis", SISC 2019), with
    // u = 2^-24. Taking d = n (the worst order) and lambda = 8 gives a bound no correct kernel comes
    // near, while a dropped or doubled element (|x| ~ 0.5) still exceeds it at every size below 2^20.
    std::vector<grading::SizeOutcome> outcomes;
    std::string details;
    for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(257), std::size_t(1000),
                          std::size_t((1u << 20) + 1), std::size_t((1u << 26) + 5)}) {
        const auto host = course::uniform_floats(n, grading::seed_for("lab01-floats", n));
        double ref = 0.0, magnitude = 0.0;
        for (float x : host) ref += x, magnitude += std::fabs(x);
        const double tol = 8.0 * std::sqrt(static_cast<double>(n)) * std::ldexp(1.0, -24) * magnitude;
        const auto got = student_sum(host);
        if (!got) return;
        const bool ok = std::isfinite(*got) && std::fabs(*got - ref) <= tol;
        outcomes.push_back({n, ok});
        if (!ok && details.size() < 400)
            details += (details.empty() ? "" : "; ") + n_str(n) + ": got " + std::to_string(*got) + ", expected " +
                       std::to_string(ref) + " +- " + std::to_string(tol);
    }
    if (!details.empty()) report_wrong(outcomes, details);
}

namespace {
// The technique check's call: sum_reduce of 2^22 + 3 random floats, followed by poison, into a guarded output.
constexpr std::size_t kTechniqueN = (std::size_t(1) << 22) + 3;
void technique_call(const std::function<void(const float*, float*)>& run) {
    const auto in = course::upload_with_poisoned_tail(course::uniform_floats(kTechniqueN, grading::seed_for("lab01-technique")));
    course::GuardedBuffer<float> out(1);
    run(in.data(), out.data());
}
}  // namespace

TEST_CASE("block_sum_kernel reduces in shared memory") {
    // Judged on what really runs: the kernels sum_reduce launches, traced, must be the lab's own, and
    // those with shared memory must do most of the work.
    technique_call([](const float* in, float* out) {
        grading::check_shared_memory_technique(
            "01", [&] { lab01::sum_reduce(in, out, kTechniqueN); }, "sum_reduce(" + n_str(kTechniqueN) + ")", lab01::graded_kernel(),
            "the lab is about combining a block's values through shared memory: declare "
            "`__shared__ float partial[kBlockSize];` (or one slot per warp) and reduce through it");
    });
}

namespace {
// Lab 01's reduction for the shared speed bench (reduction_bench.hpp): 2^28 random floats in [0, 1),
// summed by the student's sum_reduce, the naive baseline and cub::DeviceReduce::Sum.
struct SumBench {
    using Peer = lab01::baseline::CubSum;
    static constexpr std::size_t kN = kBenchN;
    static constexpr const char* kTag = "lab01-bench";
    static constexpr float kLo = 0.0f;
    static constexpr float kHi = 1.0f;
    // 16 values of 2e7 to 3e7 at random places in every input: each outweighs the tolerance below (at most
    // 2 * 8 * 2^14 * 2^-24 * (2^28 * 0.75 + 16 * 3e7) = 2^-6 * 6.8e8, about 1.06e7), so a sum that skips
    // any one of them, or one scaled up from a sample of the input, is wrong.
    static constexpr grading::Plants kPlants{16, 2.0e7f, 3.0e7f, false};
    static constexpr const char* kName = "sum_reduce";
    static void student(const float* in, float* out, std::size_t n) { lab01::sum_reduce(in, out, n); }
    static void baseline(const float* in, float* out, std::size_t n) { lab01::baseline::naive_sum(in, out, n); }
    static constexpr const char* kBaselineOp = "naive_sum";
    static constexpr const char* kPeerOp = "cub_sum";
    // The student's sum @p s must agree with CUB's @p c within the rounding bound of the random-float
    // check (for both sums: twice it). The inputs of every call span a different range, so their sums
    // differ by far more than that from one call to the next. All values are positive, so sum |x| = c.
    static std::string check(float s, float c) {
        const double tol = 2.0 * 8.0 * std::sqrt(double(kN)) * std::ldexp(1.0, -24) * std::fabs(c);
        if (!(std::isfinite(s) && std::fabs(double(s) - c) <= tol))
            return "the sum is " + std::to_string(s) + " but cub::DeviceReduce::Sum gives " + std::to_string(c);
        return "";
    }
};

// Shared set-up of the two speed checks: fresh inputs for every call of yours, summed by CUB first, the
// contenders, and a correctness gate. Every timed call of yours is checked (speed.hpp).
using SpeedBench = grading::ReductionBench<SumBench>;

// The two speed checks' one bench, set up and measured by whichever of them runs first.
grading::SharedSpeed& speed() {
    static grading::SharedSpeed shared(grading::measure_bench<SpeedBench>(
        {{grading::speedup_over_baseline, kMinSpeedupOverNaive}, {grading::fraction_of_peer, kMinFractionOfCub}}));
    return shared;
}
}  // namespace

TEST_CASE("speed: faster than the one-element-per-thread baseline" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(0);
    if (!t) return;
    grading::judge_speed(grading::speedup_over_baseline(*t), kMinSpeedupOverNaive, "x",
                         "speed-up over the naive baseline", SpeedBench::figures(*t),
                         "one element per thread leaves most of the memory system idle: have each thread add many "
                         "elements (grid-stride loop, float4 loads) before the tree");
}

TEST_CASE("speed: close to cub::DeviceReduce::Sum" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(1);
    if (!t) return;
    grading::judge_speed(grading::fraction_of_peer(*t), kMinFractionOfCub, "x CUB",
                         "speed relative to cub::DeviceReduce::Sum",
                         SpeedBench::figures(*t),
                         "reach the memory limit: a few blocks per SM, several independent float4 loads in flight "
                         "per thread, warp shuffles for the last 32 partials");
}

// The runner's memory and race check runs this test case alone, under compute-sanitizer (memcheck,
// racecheck, synccheck; see the rubric's "sanitizer" item): the lab's code at small sizes, on buffers of
// exactly the data's size, so that a read even one element past the end falls outside every allocation.
// Graded runs never include it; its results are judged by the sanitizer, not here.
// Its sizes: a few edge sizes and one size for each residue mod 64 (kResidueWidths), all small: under
// 28,000 elements in all.
// Also at kLoopingN, under every tool: blocks that each take chunks of the input (8192 elements, 8 blocks an
// SM) loop over several there, so a barrier missing between one chunk's use of shared memory and the next
// chunk's shows, where at the sizes above every block sees one chunk; and a read past the end by a path
// taken only for large inputs (the last partial float4 read whole from 2^20 elements on) meets memcheck.
constexpr std::size_t kLoopingN = (std::size_t(1) << 24) + 5;

TEST_CASE("sanitizer workload" * doctest::test_suite("sanitizer")) {
    auto sizes = grading::with_residues({1, 33, 1000, std::size_t(lab01::kBlockSize) * 64 + 7},
                                        grading::residue_sizes(kResidueWidths, {0, 1, 5}));
    // Under every tool at kLoopingN, and under memcheck at one more large size drawn from the run's seed
    // (a remainder mod 4 of any kind): a path taken only past some size meets the tool there too.
    sizes.push_back(kLoopingN);
    if (grading::workload_tool() == "memcheck")
        sizes = grading::with_random(sizes, "lab01-sanitizer-large", 1, std::size_t(1) << 20, std::size_t(1) << 24);
    for (std::size_t n : sizes) {
        const course::DeviceBuffer<float> in(course::uniform_floats(n, grading::seed_for("lab01-sanitizer", n)));
        course::DeviceBuffer<float> out(1);
        if (!grading::run_student([&] { lab01::sum_reduce(in.data(), out.data(), n); }, "sum_reduce(" + n_str(n) + ")"))
            return;
    }
}

// The runner's Nsight Compute checks run this test case alone (the rubric's "shared_memory_use" item),
// after the grader's probe kernel. It makes the technique check's call, then what the speed checks make
// first in a graded run: the correctness gate's call at the benchmark size in a new process, and one batch
// of calls, one an input slot, on the inputs of a graded run's first batch, each verified. Every launch is
// judged by the rubric's rules: each warp's partial reaches the other warps of its block through shared
// memory, not through global memory. Graded runs never include it.
TEST_CASE("profile workload" * doctest::test_suite("profile")) {
    technique_call([](const float* in, float* out) {
        grading::run_student([&] { lab01::sum_reduce(in, out, kTechniqueN); }, "sum_reduce(" + n_str(kTechniqueN) + ")");
    });
    if (grading::current_check_failed()) return;
    grading::profile_call_done("sum_reduce(" + n_str(kTechniqueN) + "), the technique check's call");
    grading::profile_bench_calls<SpeedBench>("sum_reduce(" + n_str(kBenchN) + "), the speed checks' first calls");
}
