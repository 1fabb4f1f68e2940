// Lab 02 checks — max reduction. One TEST_CASE per rubric item (rubric.json beside this file).
//
// The maximum of floats is exact: in whatever order a kernel compares, the result is one of the
// inputs. So every check demands the CPU maximum exactly (course::compare with an exact tolerance,
// under which +0.0 and -0.0 are equal), and any difference is a bug, not rounding. The special
// inputs each get a check: all-negative arrays (a 0 identity), the maximum at either end and in the
// tail, infinities, and the NaN policy of max_reduce.cuh (any NaN makes the result NaN). Speed is
// judged only as ratios to the naive baseline and to cub::DeviceReduce::Max, timed interleaved here.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "max_reduce.cuh"

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

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using grading::Failure;

namespace {

// Speed thresholds, calibrated on an NVIDIA H100 80GB HBM3 (132 SMs) at n = 2^28 (see the lab's
// README for the figures): the reference solution 2968-2991 GB/s, the naive baseline 809-811,
// cub::DeviceReduce::Max 2968-3031. So the reference is 3.69x naive and 1.00x CUB, clearing each
// threshold by at least 25% (48% and 43%), while the naive baseline (1.00x, 0.27x CUB) fails both.
constexpr double kMinSpeedupOverNaive = 2.5;  // naive_max time / student time
constexpr double kMinFractionOfCub = 0.70;    // CUB time / student time

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("speed: faster than the one-element-per-thread baseline", kMinSpeedupOverNaive);
GRADING_THRESHOLD("speed: close to cub::DeviceReduce::Max", kMinFractionOfCub);
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

// The size at which the maximum is placed at every index in turn, one call each: a kernel that never reads
// some element (one float4 at the end of each block's share, say) is wrong exactly when the maximum is
// there, which a maximum at a few random places meets rarely. Several blocks share an input of this size
// unless each takes more than 8192 elements.
constexpr std::size_t kEveryIndexN = (std::size_t(1) << 14) + 3;

// Past the benchmark size, one size for each remainder a float4 path leaves (n % 4 = 1, 2, 3): a path taken
// only for large inputs must handle its ragged end too (1 GiB each, made on the GPU).
const std::vector<std::size_t> kLargeRaggedSizes = {(std::size_t(1) << 28) + 1, (std::size_t(1) << 28) + 2,
                                                    (std::size_t(1) << 28) + 3};

// *out holds this before every graded call. Its previous contents are to be ignored, so a result
// equal to it means *out was never initialised (to -INFINITY) or never written.
constexpr float kStale = FLT_MAX;

constexpr float kInf = std::numeric_limits<float>::infinity();

float from_bits(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
const float kNaN = from_bits(0x7fc00000u);          // the usual quiet NaN
const float kNegativeNaN = from_bits(0xffc00000u);  // the same NaN with its sign bit set
// The bits of a NaN with a payload drawn from @p seed and @p salt, its sign bit set when @p negative: NaN is every
// exponent-all-ones pattern with a nonzero fraction, and a kernel must treat each as NaN, not only the
// two patterns above.
std::uint32_t random_nan_bits(std::uint64_t seed, std::uint64_t salt, bool negative) {
    const std::uint32_t fraction = 1u + static_cast<std::uint32_t>(course::hash64(seed, salt) % 0x7fffffu);
    return (negative ? 0x80000000u : 0u) | 0x7f800000u | fraction;
}

std::string n_str(std::size_t n) { return "n = " + std::to_string(n); }

// A float as a person reads it: 9 significant digits, "nan" or "-nan"; the stale value says so.
std::string show(float v) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    std::ostringstream s;
    s.precision(9);
    s << v;
    if (v == kStale) s << " (the value *out held before the call)";
    return s.str();
}

// The CPU reference, with the lab's NaN policy: any NaN makes the result NaN.
float cpu_max(const std::vector<float>& x) {
    float m = -kInf;
    for (float v : x) {
        if (std::isnan(v)) return v;
        if (v > m) m = v;
    }
    return m;
}

// Exactly right: equal to the reference (+0.0 == -0.0), and NaN exactly where the reference is NaN.
bool matches(float got, float expected) {
    return course::compare(&got, &expected, 1, course::Tolerance::exact(), 1, std::isnan(expected)).ok();
}

// Runs the student's max over the device array d_in[0..n) into @p out (its guards poisoned afresh: a write
// next to *out is caught); nullopt when it failed (recorded).
std::optional<float> student_max(const float* d_in, std::size_t n, course::GuardedBuffer<float>& out) {
    out.poison();
    CUDA_CHECK(cudaMemcpy(out.data(), &kStale, sizeof kStale, cudaMemcpyHostToDevice));
    const std::string what = "max_reduce(" + n_str(n) + ")";
    if (!grading::run_student([&] { lab02::max_reduce(d_in, out.data(), n); }, what)) return std::nullopt;
    if (const auto v = out.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe(),
                      "only *d_out is yours: check every store to out (the identity kernel's too) writes out[0] "
                      "and nothing beside it");
        return std::nullopt;
    }
    return out.download()[0];
}

// The same into an output of its own.
std::optional<float> student_max(const float* d_in, std::size_t n) {
    course::GuardedBuffer<float> out(1);
    return student_max(d_in, n, out);
}

// Fills d[0..n) with uniform floats in [lo, hi) on the GPU and returns a host copy of them.
std::vector<float> fill_uniform(course::DeviceBuffer<float>& d, std::size_t n, std::uint64_t seed, float lo, float hi) {
    course::fill_uniform_device(d.data(), n, seed, lo, hi);
    course::poison_tail(d, n);  // NaN after the end: a kernel that reads past n returns NaN
    std::vector<float> host(n);
    CUDA_CHECK(cudaMemcpy(host.data(), d.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
}

// A hint that one wrong answer alone explains; "" when it needs the pattern of several.
std::string telling_hint(float got, float expected) {
    if (got == kStale)
        return "*out still holds the value it had before the call: launch set_identity_kernel first (it starts *out "
               "at -INFINITY), then let thread 0 of every block combine its maximum into *out with atomic_max_float";
    if (got == 0.0f && expected < 0.0f)
        return "the result is 0 for an input whose elements are all negative: 0 is not the identity of max. Pad "
               "with -INFINITY (threads past n) and start *out at -INFINITY, not with a memset to 0";
    if (std::isnan(expected) && !std::isnan(got))
        return "a NaN in the input was lost: combine with max_or_nan everywhere (fmaxf, fmax and std::max drop a "
               "NaN), and in atomic_max_float turn every NaN into 0x7fffffff before the integer atomics. (If only "
               "a NaN past the last full block is lost, the tail is never read.)";
    return "";
}

// A hint from one wrong answer when the pattern of sizes said nothing.
std::string fallback_hint(float got, float expected) {
    if (std::isnan(got))
        return "NaN from an input without one: an element read at or past n, or shared memory read before it "
               "was written (a missing __syncthreads()?)";
    if (got == -kInf && expected < 0.0f)
        return "the result is -INFINITY, the identity, for negative inputs: read as ints, negative floats order "
               "backwards and -INFINITY is the largest of them, so atomicMax on int never replaces it. In "
               "atomic_max_float use atomicMin on the unsigned bits when the sign bit is set. (Or no block's "
               "maximum reached *out at all: enough blocks for all n elements?)";
    if (got == -kInf)
        return "the result is -INFINITY, the identity: no block's maximum reached *out — enough blocks to cover "
               "all n elements? does thread 0 call atomic_max_float?";
    if (expected < 0.0f && got < expected)
        return "the result is below the true maximum of negative numbers: negative floats compare backwards as "
               "integers. In atomic_max_float use atomicMax on int only when the sign bit is clear, and atomicMin "
               "on the unsigned bits otherwise";
    return "";
}

// Collects a check's wrong answers and reports them with the hint that explains them best.
struct WrongAnswers {
    std::string details;
    std::string telling, fallback;  // from the first wrong answer that gave one

    void record(const std::string& what, float got, float expected) {
        if (details.size() < 400)
            details += (details.empty() ? "" : "; ") + what + ": got " + show(got) + ", expected " + show(expected);
        if (telling.empty()) telling = telling_hint(got, expected);
        if (fallback.empty()) fallback = fallback_hint(got, expected);
    }
    // pattern: a hint from which inputs failed (e.g. grading::size_pattern_hint), or "".
    void report(const std::string& pattern) const {
        if (details.empty()) return;
        const std::string& hint = !telling.empty() ? telling : !pattern.empty() ? pattern : fallback;
        grading::fail(Failure::WrongResult, details, hint);
    }
};

// One named input of the infinity and NaN checks.
struct Case {
    std::string name;
    std::vector<float> input;
    bool lowest_ok = false;  // -FLT_MAX is accepted too (an all -INFINITY input; see the handout)
};

// Runs every case; false when a failure ended the check early.
bool run_cases(const std::vector<Case>& cases, WrongAnswers& wrong) {
    for (const Case& c : cases) {
        const auto in = course::upload_with_poisoned_tail(c.input);  // NaN after the end: an over-read shows
        const float expected = cpu_max(c.input);
        const auto got = student_max(in.data(), c.input.size());
        if (!got) return false;
        if (!matches(*got, expected) && !(c.lowest_ok && *got == -FLT_MAX)) wrong.record(c.name, *got, expected);
    }
    return true;
}

std::size_t random_index(std::uint64_t seed, std::uint64_t salt, std::size_t n) {
    return static_cast<std::size_t>(course::hash64(seed, salt) % n);
}

}  // namespace

TEST_CASE("exact maximum of random inputs at edge sizes" * doctest::test_suite("measured")) {
    course::DeviceBuffer<float> in(kExactSizes.back() + course::kInputTail);
    std::vector<grading::SizeOutcome> outcomes;
    WrongAnswers wrong;
    // Every residue mod 64 is among the sizes (kExactSizes), so a tail path of any vector width is run.
    // With the instructor's secret, three hidden sizes join them (new in every run).
        // And 16 sizes drawn from the run's seed, new in every run (a remainder of a block's chunk no listed
    // size has).
    for (std::size_t n : grading::with_hidden(grading::with_random(kExactSizes, "lab02-exact", 16, 4096, std::size_t(1) << 22),
                                              "lab02-exact", 3, 2, std::size_t(1) << 22)) {
        const auto host = fill_uniform(in, n, grading::seed_for("lab02-random", n), -1.0f, 1.0f);
        const float expected = cpu_max(host);
        const auto got = student_max(in.data(), n);
        if (!got) return;
        const bool ok = matches(*got, expected);
        if (ok && n == kExactSizes.back()) {
            // Same input again: a race shows up as a result that changes between runs.
            const auto again = student_max(in.data(), n);
            if (!again) return;
            if (!matches(*again, expected)) {
                grading::fail(Failure::WrongResult,
                              n_str(n) + ": two runs on the same input gave " + show(*got) + " and " + show(*again),
                              "the result changes between runs on the same input: a race — a missing "
                              "__syncthreads() between writing and reading shared memory?");
                return;
            }
        }
        outcomes.push_back({n, ok});
        if (!ok) wrong.record(n_str(n), *got, expected);
    }
    wrong.report(grading::size_pattern_hint(outcomes, lab02::kBlockSize));
    if (grading::current_check_failed()) return;
    // Beyond 2^31 elements, where an `int` index wraps, and beyond 2^32, where an `unsigned` one does:
    // every byte 0xBF (each float about -1.5), a 2 early, a 3 just past the boundary and the maximum, 4, at
    // the last index (n % 4 = 1: the element after the last whole float4). A wrapped index never gets past
    // the 2; a kernel that drops the ragged end of a large input stops at the 3.
    // With the GPU alone: they were sized by its free memory, which must be free for them now too.
    const grading::GpuAlone alone;
    for (const std::size_t n : {grading::kHugeN, grading::kHugerN}) {
        const std::size_t edge = std::size_t(1) << (n == grading::kHugeN ? 31 : 32);
        const auto huge = grading::huge_input(n, 0xBF, {{7, 2.0f}, {edge + 3, 3.0f}, {n - 1, 4.0f}});
        if (!huge) {
            if (grading::current_check_failed()) return;
            continue;
        }
        const auto got = student_max(huge->data(), n);
        if (!got) return;
        if (!matches(*got, 4.0f)) {
            grading::fail(Failure::WrongResult,
                          "n = " + grading::huge_label(n) + " (about -1.5 everywhere, 2 at index 7, 3 at index " +
                              (n == grading::kHugeN ? "2^31" : "2^32") + " + 3, 4 at the last index): got " + show(*got) +
                              ", expected 4",
                          matches(*got, 3.0f) ? "the last element, after the last whole float4, was never looked at: "
                                                "every path, also the one for large inputs, must handle n % 4 leftovers"
                                              : grading::kHugeIndexHint);
            return;
        }
    }
}

TEST_CASE("all-negative inputs: the identity is -infinity, not 0") {
    // Every element in [-2, -1): a kernel that pads with 0 or starts *out at 0 returns 0.
    course::DeviceBuffer<float> in(kExactSizes.back() + course::kInputTail);
    std::vector<grading::SizeOutcome> outcomes;
    WrongAnswers wrong;
    for (std::size_t n : kExactSizes) {
        const auto host = fill_uniform(in, n, grading::seed_for("lab02-negative", n), -2.0f, -1.0f);
        const float expected = cpu_max(host);
        const auto got = student_max(in.data(), n);
        if (!got) return;
        const bool ok = matches(*got, expected);
        outcomes.push_back({n, ok});
        if (!ok) wrong.record(n_str(n), *got, expected);
    }
    wrong.report(grading::size_pattern_hint(outcomes, lab02::kBlockSize));
}

TEST_CASE("maximum placed first, last and in the tail") {
    // Background uniform in [-4, -2.5) and one planted element in [-2, -1) (or a -0.0): the planted one is the
    // unique maximum, and everything is negative so that a 0 identity cannot hide it. "The tail" is
    // past the last full block of kBlockSize elements (all of the input when n < kBlockSize). The sizes:
    // the exact checks' and the large ragged ones.
    std::vector<std::size_t> sizes = kExactSizes;
    sizes.insert(sizes.end(), kLargeRaggedSizes.begin(), kLargeRaggedSizes.end());
    course::DeviceBuffer<float> in(kLargeRaggedSizes.back() + course::kInputTail);
    WrongAnswers wrong;
    bool failed_in_tail = false, failed_before_tail = false, passed_before_tail = false;
    bool failed_at_first = false, failed_elsewhere = false;
    for (std::size_t n : sizes) {
        const std::uint64_t seed = grading::seed_for("lab02-positions", n);
        const std::size_t full = n / lab02::kBlockSize * lab02::kBlockSize;  // elements in full blocks
        struct Spot {
            const char* where;
            std::size_t index;
        };
        std::vector<Spot> spots = {{"index 0", 0}, {"the last index", n - 1}};
        if (full < n) spots.push_back({"the tail", full + random_index(seed, 1, n - full)});
        spots.push_back({"a random index", random_index(seed, 2, n)});
        // A -0.0 among the last four elements (the last float4 a vectorised kernel reads, or its scalar
        // remainder): the maximum of negatives and -0.0 is -0.0 (== +0.0), which a sign-unaware integer
        // comparison loses.
        spots.push_back({"the last four, as -0.0", n - 1 - random_index(seed, 3, std::min<std::size_t>(n, 4))});
        std::vector<std::size_t> tried;
        for (std::size_t k = 0; k < spots.size(); ++k) {
            const Spot& s = spots[k];
            if (std::find(tried.begin(), tried.end(), s.index) != tried.end()) continue;
            tried.push_back(s.index);
            course::fill_uniform_device(in.data(), n, course::hash64(seed, 100 + k), -4.0f, -2.5f);
            course::poison_tail(in, n);  // NaN after the end: a kernel that reads past n returns NaN
            const bool negative_zero = std::string(s.where).find("-0.0") != std::string::npos;
            const float planted = negative_zero ? -0.0f : course::uniform_at(seed, 200 + k, -2.0f, -1.0f);
            CUDA_CHECK(cudaMemcpy(in.data() + s.index, &planted, sizeof planted, cudaMemcpyHostToDevice));
            const auto got = student_max(in.data(), n);
            if (!got) return;
            const bool ok = matches(*got, planted);
            const bool in_tail = s.index >= full;
            if (ok) {
                passed_before_tail |= !in_tail;
                continue;
            }
            (in_tail ? failed_in_tail : failed_before_tail) = true;
            (s.index == 0 ? failed_at_first : failed_elsewhere) = true;
            wrong.record(n_str(n) + ", maximum at " + s.where + " [" + std::to_string(s.index) + "]", *got, planted);
        }
    }
    // Then every index of one input in turn, the background kept and the maximum moved one place a call.
    {
        const std::size_t n = kEveryIndexN;
        const std::uint64_t seed = grading::seed_for("lab02-every-index", n);
        course::fill_uniform_device(in.data(), n, seed, -4.0f, -2.5f);
        course::poison_tail(in, n);
        std::vector<float> background(n);
        CUDA_CHECK(cudaMemcpy(background.data(), in.data(), n * sizeof(float), cudaMemcpyDeviceToHost));
        std::size_t missed = 0, first_missed = 0;
        course::GuardedBuffer<float> out(1);  // one output for all the calls: each costs a launch, not an allocation
        for (std::size_t i = 0; i < n; ++i) {
            const float planted = course::uniform_at(seed, i, -2.0f, -1.0f);
            CUDA_CHECK(cudaMemcpy(in.data() + i, &planted, sizeof planted, cudaMemcpyHostToDevice));
            const auto got = student_max(in.data(), n, out);
            if (!got) return;
            CUDA_CHECK(cudaMemcpy(in.data() + i, &background[i], sizeof(float), cudaMemcpyHostToDevice));
            if (matches(*got, planted)) continue;
            if (missed++ == 0) {
                first_missed = i;
                wrong.record(n_str(n) + ", maximum at index " + std::to_string(i), *got, planted);
            }
        }
        if (missed > 0) {
            failed_elsewhere = true;
            failed_before_tail = failed_before_tail || first_missed < n / lab02::kBlockSize * lab02::kBlockSize;
            wrong.details += " (with the maximum at each of the " + std::to_string(n) + " indices in turn, " +
                             std::to_string(missed) + " gave a wrong maximum; the first is above)";
        }
    }
    std::string pattern;
    if (failed_in_tail && !failed_before_tail && passed_before_tail)
        pattern = "wrong only when the maximum lies past the last full block of " + std::to_string(lab02::kBlockSize) +
                  ": the tail is never looked at — round the block count up (course::ceil_div) and pad threads "
                  "past n with -INFINITY";
    else if (failed_at_first && !failed_elsewhere)
        pattern = "wrong only when the maximum is at index 0: is in[0] loaded, and does the tree keep "
                  "partial[0]'s own value (start the running maximum at the identity, not past element 0)?";
    wrong.report(pattern);
}

TEST_CASE("+infinity and -infinity in the input") {
    const std::uint64_t seed = grading::seed_for("lab02-infinities");
    std::vector<Case> cases;
    {
        Case c{"+INFINITY at a random index (n = 2^20 + 1)", course::uniform_floats((1u << 20) + 1, seed, -1, 1)};
        c.input[random_index(seed, 1, c.input.size())] = kInf;
        cases.push_back(std::move(c));
    }
    {
        Case c{"+INFINITY at the last index, -INFINITY at the first (n = 257)",
               course::uniform_floats(257, course::hash64(seed, 2), -1, 1)};
        c.input.back() = kInf;
        c.input.front() = -kInf;
        cases.push_back(std::move(c));
    }
    {
        Case c{"-INFINITY everywhere but one value at a random index (n = 1000)", std::vector<float>(1000, -kInf)};
        c.input[random_index(seed, 3, c.input.size())] = course::uniform_at(seed, 4, -100.0f, 100.0f);
        cases.push_back(std::move(c));
    }
    {
        Case c{"-INFINITY everywhere but one negative value at the last index (n = 2^20 + 1)",
               std::vector<float>((1u << 20) + 1, -kInf)};
        c.input.back() = course::uniform_at(seed, 5, -100.0f, -1.0f);
        cases.push_back(std::move(c));
    }
    {
        Case c{"-INFINITY in every third element of negative numbers (n = 1000)",
               course::uniform_floats(1000, course::hash64(seed, 6), -2, -1)};
        for (std::size_t i = 0; i < c.input.size(); i += 3) c.input[i] = -kInf;
        cases.push_back(std::move(c));
    }
    cases.push_back({"only -INFINITY (n = 257)", std::vector<float>(257, -kInf), true});

    WrongAnswers wrong;
    if (!run_cases(cases, wrong)) return;
    wrong.report("");
}

TEST_CASE("NaN policy: any NaN in the input makes the result NaN") {
    const std::uint64_t seed = grading::seed_for("lab02-nan");
    std::vector<Case> cases;
    {
        Case c{"one NaN at a random index (n = 2^20 + 1)", course::uniform_floats((1u << 20) + 1, seed, -1, 1)};
        c.input[random_index(seed, 1, c.input.size())] = kNaN;
        cases.push_back(std::move(c));
    }
    {
        Case c{"one NaN with its sign bit set, at a random index (n = 1000)",
               course::uniform_floats(1000, course::hash64(seed, 2), -1, 1)};
        c.input[random_index(seed, 3, c.input.size())] = kNegativeNaN;
        cases.push_back(std::move(c));
    }
    {
        Case c{"a NaN with its sign bit set among negative numbers (n = 257)",
               course::uniform_floats(257, course::hash64(seed, 4), -2, -1)};
        c.input[random_index(seed, 5, c.input.size())] = kNegativeNaN;
        cases.push_back(std::move(c));
    }
    {
        Case c{"NaN at the last index, past the last full block (n = 2^20 + 1)",
               course::uniform_floats((1u << 20) + 1, course::hash64(seed, 6), -1, 1)};
        c.input.back() = kNaN;
        cases.push_back(std::move(c));
    }
    {
        Case c{"NaN at the first index, +INFINITY beside it (n = 1000)",
               course::uniform_floats(1000, course::hash64(seed, 7), -1, 1)};
        c.input[0] = kNaN;
        c.input[1] = kInf;
        cases.push_back(std::move(c));
    }
    cases.push_back({"a single NaN (n = 1)", {kNaN}});
    cases.push_back({"every element NaN (n = 1000)", std::vector<float>(1000, kNaN)});
    // NaNs other than the two usual patterns: a payload drawn from the seed, with and without the sign bit.
    for (const bool negative : {false, true}) {
        const std::uint32_t bits = random_nan_bits(seed, 10 + negative, negative);
        char name[96];
        std::snprintf(name, sizeof name, "the NaN 0x%08x at a random index among negative numbers (n = 4099)",
                      static_cast<unsigned>(bits));
        Case c{name, course::uniform_floats(4099, course::hash64(seed, 12 + negative), -2, -1)};
        c.input[random_index(seed, 14 + negative, c.input.size())] = from_bits(bits);
        cases.push_back(std::move(c));
    }

    WrongAnswers wrong;
    if (!run_cases(cases, wrong)) return;
    wrong.report("");
}

namespace {
// The technique check's call: max_reduce of 2^22 + 3 random floats, followed by poison, into a guarded output.
constexpr std::size_t kTechniqueN = (std::size_t(1) << 22) + 3;
void technique_call(const std::function<void(const float*, float*)>& run) {
    const auto in = course::upload_with_poisoned_tail(course::uniform_floats(kTechniqueN, grading::seed_for("lab02-technique")));
    course::GuardedBuffer<float> out(1);
    run(in.data(), out.data());
}
}  // namespace

TEST_CASE("block_max_kernel reduces in shared memory") {
    // Judged on what really runs: the kernels max_reduce launches, traced, must be the lab's own, and
    // those with shared memory must do most of the work.
    technique_call([](const float* in, float* out) {
        grading::check_shared_memory_technique(
            "02", [&] { lab02::max_reduce(in, out, kTechniqueN); }, "max_reduce(" + n_str(kTechniqueN) + ")", lab02::graded_kernel(),
            "the lab is about combining a block's values through shared memory: declare "
            "`__shared__ float partial[kBlockSize];` (or one slot per warp) and reduce through it");
    });
}

namespace {
// Lab 02's reduction for the shared speed bench (reduction_bench.hpp): 2^28 random floats in [-1, 1),
// reduced by the student's max_reduce, the naive baseline and cub::DeviceReduce::Max.
struct MaxBench {
    using Peer = lab02::baseline::CubMax;
    static constexpr std::size_t kN = kBenchN;
    static constexpr const char* kTag = "lab02-bench";
    static constexpr float kLo = -1.0f;
    static constexpr float kHi = 1.0f;
    // One value above every other, at a random place in every input: the maximum is unique, so a kernel
    // that reads only part of the input misses it (the uniform values alone repeat their top value).
    static constexpr grading::Plants kPlants{1, 0.0f, 0.25f, true};
    static constexpr const char* kName = "max_reduce";
    static void student(const float* in, float* out, std::size_t n) { lab02::max_reduce(in, out, n); }
    static void baseline(const float* in, float* out, std::size_t n) { lab02::baseline::naive_max(in, out, n); }
    static constexpr const char* kBaselineOp = "naive_max";
    static constexpr const char* kPeerOp = "cub_max";
    // The student's maximum @p s must equal CUB's @p c exactly (no NaN or infinity here, where CUB and
    // the lab's policy agree).
    static std::string check(float s, float c) {
        if (!matches(s, c)) return "the maximum is " + show(s) + " but cub::DeviceReduce::Max gives " + show(c);
        return "";
    }
};

// Shared set-up of the two speed checks: fresh inputs for every call of yours, reduced by CUB first, the
// contenders, and a correctness gate. Every timed call of yours is checked (speed.hpp).
using SpeedBench = grading::ReductionBench<MaxBench>;

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
                         "one element per thread leaves most of the memory system idle: have each thread take the "
                         "maximum of many elements (grid-stride loop, float4 loads) before the tree");
}

TEST_CASE("speed: close to cub::DeviceReduce::Max" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(1);
    if (!t) return;
    grading::judge_speed(grading::fraction_of_peer(*t), kMinFractionOfCub, "x CUB",
                         "speed relative to cub::DeviceReduce::Max",
                         SpeedBench::figures(*t),
                         "reach the memory limit: a few blocks per SM, several independent float4 loads in flight "
                         "per thread, warp shuffles for the last 32 values");
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
    auto sizes = grading::with_residues({1, 33, 1000, std::size_t(lab02::kBlockSize) * 64 + 7},
                                        grading::residue_sizes(kResidueWidths, {0, 1, 5}));
    // Under every tool at kLoopingN, and under memcheck at one more large size drawn from the run's seed
    // (a remainder mod 4 of any kind): a path taken only past some size meets the tool there too.
    sizes.push_back(kLoopingN);
    if (grading::workload_tool() == "memcheck")
        sizes = grading::with_random(sizes, "lab02-sanitizer-large", 1, std::size_t(1) << 20, std::size_t(1) << 24);
    for (std::size_t n : sizes) {
        const course::DeviceBuffer<float> in(course::uniform_floats(n, grading::seed_for("lab02-sanitizer", n)));
        course::DeviceBuffer<float> out(1);
        if (!grading::run_student([&] { lab02::max_reduce(in.data(), out.data(), n); },
                                  "max_reduce(n = " + std::to_string(n) + ")"))
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
        grading::run_student([&] { lab02::max_reduce(in, out, kTechniqueN); }, "max_reduce(" + n_str(kTechniqueN) + ")");
    });
    if (grading::current_check_failed()) return;
    grading::profile_call_done("max_reduce(" + n_str(kTechniqueN) + "), the technique check's call");
    grading::profile_bench_calls<SpeedBench>("max_reduce(" + n_str(kBenchN) + "), the speed checks' first calls");
}
