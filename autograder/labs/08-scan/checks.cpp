// Lab 08 checks — inclusive prefix sum (scan). One TEST_CASE per rubric item (rubric.json beside this file).
//
// Correctness comes first and is exact where it can be. The int scan wraps modulo 2^32 (scan.cuh), so its
// result is unique whatever order a kernel adds in: the CPU reference sums in uint32_t, where C++ defines
// the wrap, and every element must match bit for bit. The float scan is exact on integer-valued inputs whose
// magnitudes add up to less than 2^24, and within a probabilistic rounding bound on random floats. Every
// output is poisoned before the call and has guard zones on both sides; every input is followed by poison.
// Speed is judged only as ratios to the naive multi-block scan and to cub::DeviceScan::InclusiveSum, timed
// interleaved in this run, every timed call's output compared with CUB's on the GPU.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "scan.cuh"

#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"
#include "guarded_buffer.hpp"
#include "hints.hpp"
#include "huge_input.hpp"
#include "kernel_trace.hpp"
#include "random.hpp"
#include "residues.hpp"
#include "speed.hpp"
#include "verify.hpp"

#include <cuda_runtime_api.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using grading::Failure;

namespace {

// Speed thresholds: provisional, chosen by reasoning before any measurement (the reference's figures on the
// H100 and the H200 are still to be recorded in rubric.json). The scan is memory-bound: the least it can move
// is n elements read and n written, 8 bytes an element. CUB's single pass moves that and runs near the copy
// limit; the reference does the same in one pass, so it should measure 0.9 to 1.0x CUB: 0.70 leaves it about
// 30% of margin, as in Labs 01 and 02. Kernels that move more bytes cannot reach it: reduce-then-scan reads the
// input twice (12 bytes an element: at most 0.67x), scan-then-add writes the output twice (16 bytes: at most
// 0.5x), and the reference without its padding spends 17 shared-memory wavefronts for every 32 elements each
// way (a 16-way conflict on one access of each staging) where the padded tile spends 2: at one wavefront a
// clock an SM (128 bytes), about 2.5e11 elements a second on 132 SMs at 1.98 GHz, half of the 5e11 an H200
// moves at its copy speed (4 TB/s, 8 bytes an element). The naive scan
// moves 16 bytes an element in three kernels of 256-element blocks whose 8 barrier-separated steps leave the
// memory system idle (Lab 01's like-shaped tree reached a fifth of the copy speed), so it should measure about
// 0.1x CUB: the reference about 10x it. 3.0 leaves the reference far above it, needs more than the naive scheme
// with wider tiles (at best 2x, from its bytes alone), and is within reach of a padded up-sweep/down-sweep
// scan-then-add with several elements a thread.
constexpr double kMinSpeedupOverNaive = 3.0;  // naive_scan time / student time
constexpr double kMinFractionOfCub = 0.70;    // CUB time / student time

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("speed: faster than the naive multi-block scan", kMinSpeedupOverNaive);
GRADING_THRESHOLD("speed: close to cub::DeviceScan::InclusiveSum", kMinFractionOfCub);
constexpr std::size_t kBenchN = std::size_t(1) << 28;  // 1 GiB of ints in, 1 GiB out: far larger than any L2

// The timed calls, counted by the GPU's performance monitors (speed.hpp): the least shared-memory load and
// store wavefronts, each, for each warp-level memory instruction ...
constexpr double kTimedSharedWavefronts = 0.1;
// ... and, for each call, this share of the load and of the store wavefronts of a tile through which every
// element goes once (one wavefront for every 32 words, whatever the layout: a wavefront moves at most 128
// bytes). The reference stages every element twice (in, and out again), 2.0 of each.
constexpr double kTimedStagedShare = 0.9;

// Sizes that fit in one block of kBlockSize threads, one element a thread: what tier 1 scans.
const std::vector<std::size_t> kOneBlockSizes = {1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200, 255, 256};

// Sizes across blocks: a block plus one, a tile of 4096 (the reference's) and its neighbours, and 2^k - 1 and
// 2^k + 1 for k = 9 to 24 (the edges of every power-of-two tile a kernel may choose, several tiles of it), the
// largest last (it runs twice).
std::vector<std::size_t> across_edge_sizes() {
    std::vector<std::size_t> sizes = {257, 1000, 4095, 4096, 4097, 3 * 4096 + 1};
    for (int k = 9; k <= 24; ++k) {
        sizes.push_back((std::size_t(1) << k) - 1);
        sizes.push_back((std::size_t(1) << k) + 1);
    }
    sizes.push_back((std::size_t(1) << 26) + 5);
    return sizes;
}

// The widths whose remainders a kernel's paths depend on: int2 (2), int4 (4), two int4 a thread (8), 16, a
// warp's 32 lanes, 64. residues.hpp derives one size for each residue mod their lcm (64), so every tail a
// vector loop can leave is tried; with the sizes at the edges of whole chunks of 2^7 to 2^16 elements (a
// count of whole tiles rounded the wrong way drops or doubles the last elements only that close to a
// multiple of the tile), the largest edge size last.
const std::vector<std::size_t> kResidueWidths = {2, 4, 8, 16, 32, 64};
const std::vector<std::size_t> kAcrossSizes = grading::exact_sizes_1d(across_edge_sizes(), kResidueWidths, {0, 3, 17, 70});

std::string n_str(std::size_t n) { return "n = " + std::to_string(n); }

// The reference: the inclusive scan in uint32_t, where the wrap-around is defined, read back as ints.
std::vector<int> cpu_scan(const std::vector<int>& in) {
    std::vector<int> out(in.size());
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        sum += static_cast<std::uint32_t>(in[i]);
        out[i] = static_cast<int>(sum);
    }
    return out;
}

// @p n ints from @p seed: uniform in [lo, hi] (course::integer_at, the full int range included).
std::vector<int> random_ints(std::size_t n, std::uint64_t seed, int lo, int hi) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = course::integer_at(seed, i, lo, hi);
    return v;
}

// What a wrong int scan looks like, from its first wrong element: a hint at the likely cause, or "".
// out[i] holding the exclusive sum (in[i] left out), or the scan of its own tile only (a tile starting at a
// multiple of a power of two, without the sum of the tiles before), or never written.
std::string wrong_scan_hint(const std::vector<int>& in, const std::vector<int>& got, const std::vector<int>& expected,
                            std::size_t first) {
    const auto u = [](int v) { return static_cast<std::uint32_t>(v); };
    const std::uint32_t exclusive = u(expected[first]) - u(in[first]);
    if (u(got[first]) == exclusive && in[first] != 0)
        return "out[" + std::to_string(first) + "] is the sum of the elements before it, without in[" +
               std::to_string(first) + "] itself: that is the exclusive scan; this lab's is inclusive (out[i] "
               "includes in[i]). Check the identity you start from and the index you store (off by one)";
    for (int j = 16; j >= 5; --j) {
        const std::size_t start = first >> j << j;  // the tile of 2^j elements that holds `first`
        if (start == 0 || start > first) continue;
        if (u(got[first]) == u(expected[first]) - u(expected[start - 1]))
            return "from out[" + std::to_string(start) + "] on, the output is the scan of each tile of " +
                   std::to_string(std::size_t(1) << j) + " elements alone: the sum of everything before a tile (its "
                   "carry) is not added. Hand each tile's total on to every later tile (scan the tiles' totals, or "
                   "look back), and add it";
    }
    if (got[first] == -1 && expected[first] != -1)  // the poison pattern: never written
        return "out[" + std::to_string(first) + "] was never written: does the grid cover all n elements (round the "
               "tile count up with course::ceil_div), and does the last, partial tile store its elements?";
    return "";
}

// The first index where @p got and @p expected differ (their size when they do not).
std::size_t first_mismatch(const std::vector<int>& got, const std::vector<int>& expected) {
    std::size_t i = 0;
    while (i < got.size() && got[i] == expected[i]) ++i;
    return i;
}

// "" when @p got equals @p expected, else "K of N elements differ (U still -1, the poison); first: out[i] = x
// (expected y), ...", the ints printed exactly.
std::string int_mismatches(const std::vector<int>& got, const std::vector<int>& expected) {
    std::size_t wrong = 0, poison = 0;
    std::string first;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (got[i] == expected[i]) continue;
        ++wrong;
        if (got[i] == -1) ++poison;
        if (wrong <= 3)
            first += " out[" + std::to_string(i) + "] = " + std::to_string(got[i]) + " (expected " +
                     std::to_string(expected[i]) + ")";
    }
    if (wrong == 0) return "";
    return std::to_string(wrong) + " of " + std::to_string(got.size()) + " elements differ" +
           (poison ? " (" + std::to_string(poison) + " of them -1, the poison: never written?)" : std::string()) +
           "; first:" + first;
}

// Runs the student's int scan of @p host into a poisoned, guarded output; nullopt when it failed (recorded).
std::optional<std::vector<int>> student_scan(const std::vector<int>& host) {
    const auto in = course::upload_with_poisoned_tail(host);  // -1s after the end: an over-read shows
    course::GuardedBuffer<int> out(host.size());               // poisoned: an unwritten element reads back as -1
    const std::string what = "inclusive_scan(int, " + n_str(host.size()) + ")";
    if (!grading::run_student([&] { lab08::inclusive_scan(in.data(), out.data(), host.size()); }, what))
        return std::nullopt;
    if (const auto v = out.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe(),
                      "only out[0 .. n) is yours: guard every store of the last, partial tile with i < n");
        return std::nullopt;
    }
    return out.download();
}

// The same for floats.
std::optional<std::vector<float>> student_scan(const std::vector<float>& host) {
    const auto in = course::upload_with_poisoned_tail(host);  // NaN after the end: an over-read shows
    course::GuardedBuffer<float> out(host.size());            // poisoned: an unwritten element reads back as NaN
    const std::string what = "inclusive_scan(float, " + n_str(host.size()) + ")";
    if (!grading::run_student([&] { lab08::inclusive_scan(in.data(), out.data(), host.size()); }, what))
        return std::nullopt;
    if (const auto v = out.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe(),
                      "only out[0 .. n) is yours: guard every store of the last, partial tile with i < n");
        return std::nullopt;
    }
    return out.download();
}

// What the int checks learn, size by size: the outcomes (for the pattern of sizes), the first few failures'
// details, and the first failure's hint.
struct WrongScans {
    std::vector<grading::SizeOutcome> outcomes;
    std::string details;
    std::string hint;
    // Compares @p got with @p expected at input @p in (named @p label); records the outcome.
    void record(const std::string& label, const std::vector<int>& in, const std::vector<int>& got,
                const std::vector<int>& expected) {
        const std::string wrong = int_mismatches(got, expected);
        outcomes.push_back({in.size(), wrong.empty()});
        if (wrong.empty()) return;
        if (hint.empty()) hint = wrong_scan_hint(in, got, expected, first_mismatch(got, expected));
        if (details.size() < 600) details += (details.empty() ? "" : " | ") + label + ": " + wrong;
    }
    // Fails the current check as a wrong result when anything was wrong.
    bool report() const {
        if (details.empty()) return false;
        grading::fail(Failure::WrongResult, details,
                      hint.empty() ? grading::size_pattern_hint(outcomes, lab08::kBlockSize) : hint);
        return true;
    }
};

// Runs every size of @p sizes with ints from @p make (size, seed) and compares with the CPU scan; the last
// size runs twice on the same input when @p twice (a race shows as results that change). False when the
// check failed (recorded).
bool check_int_sizes(const std::vector<std::size_t>& sizes, const std::string& tag,
                     const std::function<std::vector<int>(std::size_t, std::uint64_t)>& make, bool twice) {
    WrongScans wrong;
    for (const std::size_t n : sizes) {
        const auto host = make(n, grading::seed_for(tag, n));
        const auto got = student_scan(host);
        if (!got) return false;
        const auto expected = cpu_scan(host);
        wrong.record(n_str(n), host, *got, expected);
        if (twice && n == sizes.back() && *got == expected) {
            const auto again = student_scan(host);
            if (!again) return false;
            if (*again != *got) {
                grading::fail(Failure::WrongResult,
                              n_str(n) + ", the same input a second time: " + int_mismatches(*again, expected),
                              "the result changes between runs on the same input: a race. A missing "
                              "__syncthreads() between writing shared memory and reading it, or a tile that reads "
                              "another tile's total before that tile published it (the flag must be written after the "
                              "value, with release; read with acquire)");
                return false;
            }
        }
    }
    return !wrong.report();
}

// An int output past 2^31 elements, too large for GuardedBuffer's host copy: poisoned, with a guard of 64
// elements on either side that is checked by copying only the guards.
struct HugeOutput {
    static constexpr std::size_t kGuard = 64;  // 256 bytes: the output stays 256-byte aligned
    course::DeviceBuffer<int> storage;
    std::size_t n;
    explicit HugeOutput(std::size_t n_) : storage(n_ + 2 * kGuard), n(n_) { storage.fill_bytes(course::kPoisonByte); }
    int* data() { return storage.data() + kGuard; }
    // The first guard element written, as GuardedBuffer::check_guards() describes it.
    std::optional<course::GuardViolation> check_guards() const {
        std::vector<int> front(kGuard), back(kGuard);
        CUDA_CHECK(cudaMemcpy(front.data(), storage.data(), kGuard * sizeof(int), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(back.data(), storage.data() + kGuard + n, kGuard * sizeof(int), cudaMemcpyDeviceToHost));
        for (std::size_t i = kGuard; i-- > 0;)
            if (front[i] != -1) return course::GuardViolation{true, static_cast<long long>(i) - static_cast<long long>(kGuard)};
        for (std::size_t i = 0; i < kGuard; ++i)
            if (back[i] != -1) return course::GuardViolation{false, static_cast<long long>(n + i)};
        return std::nullopt;
    }
};

// The int scan past 2^31 and past 2^32 elements, where an int or an unsigned index (or tile count times tile
// size in 32 bits) has wrapped: random ints over the whole range, scanned by CUB in this process (64-bit
// counts) for the reference, every element compared on the GPU. Each runs only where the GPU had its input,
// output and reference free when grading started (decided before any student code ran); a note says so
// otherwise.
void check_huge_sizes() {
    const grading::GpuAlone alone;  // sized by the GPU's free memory, which must be free for them now too
    for (const std::size_t n : {grading::kHugeN, grading::kHugerN}) {
        const std::size_t needs = 3 * (n + 2 * HugeOutput::kGuard) * sizeof(int) + (std::size_t(1) << 30);
        if (!grading::run_if_it_fitted("the size " + grading::huge_label(n), needs)) continue;
        const std::string what = "inclusive_scan(int, n = " + grading::huge_label(n) + ")";
        try {
            course::DeviceBuffer<int> in(n);  // exactly n: a read past the end is outside it
            // Random bits: the bits of uniform floats read as ints (every bit pattern is an int, and every
            // element changes every output after it).
            course::fill_uniform_device(reinterpret_cast<float*>(in.data()), n, grading::seed_for("lab08-huge", n), -1.0f,
                                        1.0f);
            HugeOutput expected(n), out(n);
            {
                lab08::baseline::CubScan cub(n);
                cub(in.data(), expected.data(), n);
                CUDA_CHECK(cudaDeviceSynchronize());
            }
            if (!grading::run_student_past_2_31([&] { lab08::inclusive_scan(in.data(), out.data(), n); }, what)) return;
            if (const auto v = out.check_guards()) {
                grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe(), grading::kHugeIndexHint);
                return;
            }
            const std::size_t first = lab08::baseline::first_difference(out.data(), expected.data(), n);
            if (first == n) continue;
            int got = 0, want = 0;
            CUDA_CHECK(cudaMemcpy(&got, out.data() + first, sizeof got, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(&want, expected.data() + first, sizeof want, cudaMemcpyDeviceToHost));
            grading::fail(Failure::WrongResult,
                          "n = " + grading::huge_label(n) + " (random ints): first wrong element out[" +
                              std::to_string(first) + "] = " + std::to_string(got) + " (expected " + std::to_string(want) +
                              (got == -1 ? ", and -1 is the poison: never written" : "") + ")",
                          grading::kHugeIndexHint);
            return;
        } catch (const course::CudaError& e) {
            if (e.code() != cudaErrorMemoryAllocation) throw;
            grading::fail_missing_memory("the arrays of " + grading::huge_label(n) + " elements");
            return;
        }
    }
}

}  // namespace

TEST_CASE("exact integer scan within one block") {
    // Sizes up to kBlockSize (256): one tile of one element a thread, what tier 1 scans. Ints in
    // [-1000, 1000]; the sums are exact, so every element must equal the CPU scan.
    check_int_sizes(kOneBlockSizes, "lab08-one-block",
                    [](std::size_t n, std::uint64_t seed) { return random_ints(n, seed, -1000, 1000); }, false);
}

TEST_CASE("exact integer scan across blocks at edge sizes" * doctest::test_suite("measured")) {
    // Ints in [-1000, 1000] at the sizes of kAcrossSizes, 16 sizes drawn from the run's seed up to 2^22 (new in
    // every run), and with the instructor's secret three hidden sizes; the largest (2^26 + 5) twice on the same
    // input. Then past 2^31 and 2^32 elements.
    const auto sizes = grading::with_hidden(grading::with_random(kAcrossSizes, "lab08-across", 16, 4096, std::size_t(1) << 22),
                                            "lab08-across", 3, 2, std::size_t(1) << 22);
    if (!check_int_sizes(sizes, "lab08-across",
                         [](std::size_t n, std::uint64_t seed) { return random_ints(n, seed, -1000, 1000); }, true))
        return;
    check_huge_sizes();
}

TEST_CASE("negative integers and wrap-around past 2^31") {
    // The sums wrap modulo 2^32 (scan.cuh): negative inputs, ints over the whole range (whose sums wrap all
    // the time), and INT_MAX in every element (out[i] = (i + 1) * INT_MAX mod 2^32), at sizes within one
    // block, across a few tiles and across many.
    const std::vector<std::size_t> sizes = {1, 33, 257, 4097, (std::size_t(1) << 20) + 1};
    if (!check_int_sizes(sizes, "lab08-negative",
                         [](std::size_t n, std::uint64_t seed) { return random_ints(n, seed, -1000, -1); }, false))
        return;
    if (!check_int_sizes(sizes, "lab08-full-range",
                         [](std::size_t n, std::uint64_t seed) { return random_ints(n, seed, INT_MIN, INT_MAX); }, false))
        return;
    check_int_sizes({5, 1000, 65537}, "lab08-int-max",
                    [](std::size_t n, std::uint64_t) { return std::vector<int>(n, INT_MAX); }, false);
}

TEST_CASE("float scan within the rounding bound") {
    // Two parts. (1) Integer-valued floats in [-7, 7], n <= 2^21: every partial sum of any of their ranges is an
    // integer of magnitude below 7 * 2^21 < 2^24, which a float holds exactly, so whatever order a kernel adds
    // in, every element must equal the exact scan. (2) Floats uniform in [-1, 1), the reference in double: out[i]
    // is a sum of i + 1 terms, in an order of depth at most i + 1, and its rounding error stays below
    // lambda * sqrt(i + 1) * u * (|x_0| + ... + |x_i|) with overwhelming probability (Higham & Mary, "A new approach
    // to probabilistic rounding error analysis", SISC 2019), u = 2^-24. lambda = 8 makes a correct kernel's
    // failure at any element of these sizes less likely than 1 in 10^6 (each element fails with probability
    // below 2 exp(-lambda^2 / 2)); a lost element or a lost carry of a tile exceeds it at every size below 2^16.
    std::vector<grading::SizeOutcome> outcomes;
    std::string details;
    const auto add = [&](std::size_t n, bool ok, const std::string& what) {
        outcomes.push_back({n, ok});
        if (!ok && details.size() < 600) details += (details.empty() ? "" : " | ") + what;
    };
    for (const std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(257), std::size_t(4097),
                                std::size_t((1u << 20) + 1), std::size_t(1u << 21)}) {
        const auto host = course::integer_floats(n, grading::seed_for("lab08-float-integers", n), -7, 7);
        std::vector<float> expected(n);
        double sum = 0.0;
        for (std::size_t i = 0; i < n; ++i) expected[i] = static_cast<float>(sum += host[i]);
        const auto got = student_scan(host);
        if (!got) return;
        const course::Comparison c = course::compare(*got, expected, course::Tolerance::exact(), 3);
        add(n, c.ok(), n_str(n) + ", integer-valued floats (exact): " + c.summary("out"));
    }
    for (const std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(257), std::size_t(1000), std::size_t(4097),
                                std::size_t((1u << 20) + 1), std::size_t((1u << 24) + 3)}) {
        const auto host = course::uniform_floats(n, grading::seed_for("lab08-floats", n));
        const auto got = student_scan(host);
        if (!got) return;
        double sum = 0.0, magnitude = 0.0;
        std::size_t bad = 0, first = 0;
        double first_ref = 0.0, first_tol = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            sum += host[i];
            magnitude += std::fabs(host[i]);
            const double tol = 8.0 * std::sqrt(static_cast<double>(i + 1)) * std::ldexp(1.0, -24) * magnitude;
            const float g = (*got)[i];
            if (std::isfinite(g) && std::fabs(g - sum) <= tol) continue;
            if (bad++ == 0) first = i, first_ref = sum, first_tol = tol;
        }
        add(n, bad == 0,
            n_str(n) + ", uniform floats: " + std::to_string(bad) + " of " + std::to_string(n) +
                " elements outside the bound; first: out[" + std::to_string(first) + "] = " +
                (bad ? std::to_string((*got)[first]) : std::string()) + " (expected " + std::to_string(first_ref) + " +- " +
                std::to_string(first_tol) + ")");
    }
    if (!details.empty())
        grading::fail(Failure::WrongResult, details,
                      grading::size_pattern_hint(outcomes, lab08::kBlockSize).empty()
                          ? "the float scan is a second instantiation of your kernels (T = float): check what differs "
                            "from the int one — the identity T(0), and the float bits in any status word"
                          : grading::size_pattern_hint(outcomes, lab08::kBlockSize));
}

namespace {
// The technique check's call: the int scan of 2^22 + 3 random ints, input followed by poison, guarded output.
constexpr std::size_t kTechniqueN = (std::size_t(1) << 22) + 3;
void technique_call(const std::function<void(const int*, int*)>& run) {
    const auto in = course::upload_with_poisoned_tail(random_ints(kTechniqueN, grading::seed_for("lab08-technique"), -1000, 1000));
    course::GuardedBuffer<int> out(kTechniqueN);
    run(in.data(), out.data());
}
}  // namespace

TEST_CASE("scan_tiles_kernel scans its tiles in shared memory") {
    // Judged on what really runs: the kernels inclusive_scan launches, traced, must be the lab's own, and those
    // with shared memory must do most of the work.
    technique_call([](const int* in, int* out) {
        grading::check_shared_memory_technique(
            "08", [&] { lab08::inclusive_scan(in, out, kTechniqueN); }, "inclusive_scan(int, " + n_str(kTechniqueN) + ")",
            lab08::graded_kernel(),
            "the lab is about scanning a tile in shared memory: declare a `__shared__` tile in scan_tiles_kernel "
            "and scan through it (Hillis–Steele, or the up-sweep and down-sweep)");
    });
}

namespace {
// Shared set-up of the two speed checks: 2^28 ints a slot, refilled with fresh contents for every call of
// yours and scanned by CUB in this process first (the reference), the contenders, and a gate: your output at
// this size must equal CUB's, bit for bit. Every timed call of yours is checked on the GPU (speed.hpp).
struct SpeedBench {
    // The technique in the timed calls (speed.hpp, timed_counters.hpp): every element goes through shared
    // memory, stored and loaded back, in every call.
    static grading::TimedTechnique timed_technique() {
        return grading::staged_through_shared(
            kTimedSharedWavefronts, kTimedSharedWavefronts,
            "in every call, timed or not, stage each tile in a __shared__ array (store every element, load it back) "
            "and scan it there, not in registers and global memory alone",
            kTimedStagedShare * double(kN) / 32, kTimedStagedShare * double(kN) / 32,
            "a scan that stages every element in shared memory");
    }
    static constexpr std::size_t kN = kBenchN;
    // Input, reference, your output and the peers' output a slot.
    static int slot_count() { return grading::bench_slots(4 * kN * sizeof(int)); }
    // The inputs are random floats' bits read as ints: every bit pattern is an int, the sums wrap all the time,
    // and every element changes every output after it, so no shortcut can skip any.
    grading::BenchInputs inputs{kN, "lab08-bench", -1.0f, 1.0f, slot_count()};
    std::vector<course::DeviceBuffer<int>> references;  // each slot's scan, by CUB
    std::vector<course::DeviceBuffer<int>> outs;        // your output a slot
    std::vector<course::DeviceBuffer<int>> peer_outs;   // the baseline's and the peer's output a slot
    lab08::baseline::CubScan cub{kN};
    int current = 0;  // the input of the student's next call (in this process)
    bool correct = false;

    static const int* ints(const float* p) { return reinterpret_cast<const int*>(p); }
    const int* input(int slot) const { return ints(inputs[slot]); }
    int* mine(int s) { return outs[static_cast<std::size_t>(s)].data(); }
    int* theirs(int s) { return peer_outs[static_cast<std::size_t>(s)].data(); }

    explicit SpeedBench(const grading::BenchStart&) {
        for (int i = 0; i < slot_count(); ++i) {
            references.emplace_back(kN);
            outs.emplace_back(kN);
            peer_outs.emplace_back(kN);
            cub(input(i), references.back().data(), kN);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        outs[0].fill_bytes(course::kPoisonByte);
        const std::string what = "inclusive_scan(int, " + n_str(kN) + ")";
        if (!grading::run_student([&] { lab08::inclusive_scan(input(0), mine(0), kN); }, what)) return;
        const std::string wrong = verify(0);
        correct = wrong.empty();
        if (!correct)
            grading::fail(Failure::WrongResult, what + ": " + wrong,
                          "if the exact checks at smaller sizes pass, suspect a race between tiles (a carry read before "
                          "its tile published it) or an index that overflows int at this size (use std::size_t)");
    }
    std::string verify(int i) {
        const auto k = static_cast<std::size_t>(i);
        const std::size_t first = lab08::baseline::first_difference(outs[k].data(), references[k].data(), kN);
        if (first != kN) {
            int got = 0, want = 0;
            CUDA_CHECK(cudaMemcpy(&got, outs[k].data() + first, sizeof got, cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(&want, references[k].data() + first, sizeof want, cudaMemcpyDeviceToHost));
            return "the scan differs from cub::DeviceScan::InclusiveSum's from out[" + std::to_string(first) + "] = " +
                   std::to_string(got) + " (expected " + std::to_string(want) + ")";
        }
        return inputs.changed(i);
    }
    std::vector<grading::Timings> measure(const std::vector<grading::Criterion>& criteria) {
        const grading::VerifiedCalls calls{slot_count(),
                                           [&](int slot, int call) {
                                               const auto k = static_cast<std::size_t>(slot);
                                               inputs.refresh(slot, call);
                                               cub(input(slot), references[k].data(), kN);
                                               current = slot;
                                               outs[k].fill_bytes(course::kPoisonByte);
                                           },
                                           [&](int slot) { return verify(slot); }};
        if (grading::isolation::enabled()) {
            // All three across the same boundary, each reading the slot's input and writing a buffer a slot.
            using grading::isolation::Host;
            using grading::isolation::forward;
            const std::size_t bytes = kN * sizeof(int);
            const grading::Contenders across = {
                {[&](int s) { lab08::inclusive_scan(input(s), mine(s), kN); }, Host::Student,
                 [&](int s) -> const void* { return mine(s); }, bytes},
                {[&](int s) { forward(Host::Peers, "naive_scan", input(s), theirs(s), kN); }, Host::Peers,
                 [&](int s) -> const void* { return theirs(s); }, bytes},
                {[&](int s) { forward(Host::Peers, "cub_scan", input(s), theirs(s), kN); }, Host::Peers,
                 [&](int s) -> const void* { return theirs(s); }, bytes, true}};
            return grading::measure_against(across, criteria, calls);
        }
        return grading::measure_against([&] { lab08::inclusive_scan(input(current), mine(current), kN); },
                                        [&] { lab08::baseline::naive_scan(input(0), theirs(0), kN); },
                                        [&] { cub(input(0), theirs(0), kN); }, criteria, calls);
    }
    static std::string figures(const grading::Timings& t) {
        const double bytes = 2.0 * static_cast<double>(kN) * sizeof(int);  // read once, written once
        return "n = 2^28 ints, counting read + write: yours " + grading::fixed(course::gb_per_s(bytes, t.student_ms), 0) +
               " GB/s, naive " + grading::fixed(course::gb_per_s(bytes, t.baseline_ms), 0) + " GB/s, CUB " +
               grading::fixed(course::gb_per_s(bytes, t.peer_ms), 0) + " GB/s (medians, " + std::to_string(t.rounds) +
               " round(s))";
    }
};

// The two speed checks' one bench, set up and measured by whichever of them runs first.
grading::SharedSpeed& speed() {
    static grading::SharedSpeed shared(grading::measure_bench<SpeedBench>(
        {{grading::speedup_over_baseline, kMinSpeedupOverNaive}, {grading::fraction_of_peer, kMinFractionOfCub}}));
    return shared;
}
}  // namespace

TEST_CASE("speed: faster than the naive multi-block scan" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(0);
    if (!t) return;
    grading::judge_speed(grading::speedup_over_baseline(*t), kMinSpeedupOverNaive, "x",
                         "speed-up over the naive multi-block scan", SpeedBench::figures(*t),
                         "one element a thread and a second pass over the output leave the memory system idle: give "
                         "each thread many elements of a larger tile, and carry between tiles without writing the "
                         "output twice");
}

TEST_CASE("speed: close to cub::DeviceScan::InclusiveSum" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(1);
    if (!t) return;
    grading::judge_speed(grading::fraction_of_peer(*t), kMinFractionOfCub, "x CUB",
                         "speed relative to cub::DeviceScan::InclusiveSum", SpeedBench::figures(*t),
                         "reach the memory limit in one pass: read each element once and write it once (decoupled "
                         "look-back instead of a second pass), 16 elements a thread staged through a padded shared "
                         "tile so that loads and stores are coalesced and free of bank conflicts");
}

// The runner's memory and race check runs this test case alone, under compute-sanitizer (memcheck,
// racecheck, synccheck; see the rubric's "sanitizer" item): the lab's code at small sizes, on buffers of
// exactly the data's size, so that a read even one element past the end falls outside every allocation.
// Graded runs never include it; its results are judged by the sanitizer, not here.
// Its sizes: a few edge sizes (one element, a warp and one, a block and one, a tile of 4096 and one, several
// tiles) and one size for each residue mod 64 (kResidueWidths) for the int scan, and four of them for the
// float scan: under 40,000 elements in all.
TEST_CASE("sanitizer workload" * doctest::test_suite("sanitizer")) {
    const auto sizes = grading::with_residues({1, 33, 257, 4097, std::size_t(lab08::kBlockSize) * 64 + 7},
                                              grading::residue_sizes(kResidueWidths, {0, 1, 5}));
    for (const std::size_t n : sizes) {
        const course::DeviceBuffer<int> in(random_ints(n, grading::seed_for("lab08-sanitizer", n), -1000, 1000));
        course::DeviceBuffer<int> out(n);
        if (!grading::run_student([&] { lab08::inclusive_scan(in.data(), out.data(), n); },
                                  "inclusive_scan(int, " + n_str(n) + ")"))
            return;
    }
    for (const std::size_t n : {std::size_t(1), std::size_t(257), std::size_t(4097), std::size_t(lab08::kBlockSize) * 64 + 7}) {
        const course::DeviceBuffer<float> in(course::uniform_floats(n, grading::seed_for("lab08-sanitizer-float", n)));
        course::DeviceBuffer<float> out(n);
        if (!grading::run_student([&] { lab08::inclusive_scan(in.data(), out.data(), n); },
                                  "inclusive_scan(float, " + n_str(n) + ")"))
            return;
    }
}

// The runner's Nsight Compute checks run this test case alone (the rubric's "shared_memory_use" item), after
// the grader's probe kernel. It makes the technique check's call, then what the speed checks make first in a
// graded run: the correctness gate's call at the benchmark size in a new process, and one batch of calls, one
// an input slot, on the inputs of a graded run's first batch, each verified. Every launch is judged by the
// rubric's rules: the warps of every block hand values to each other through shared memory. Graded runs never
// include it.
TEST_CASE("profile workload" * doctest::test_suite("profile")) {
    technique_call([](const int* in, int* out) {
        grading::run_student([&] { lab08::inclusive_scan(in, out, kTechniqueN); },
                             "inclusive_scan(int, " + n_str(kTechniqueN) + ")");
    });
    if (grading::current_check_failed()) return;
    grading::profile_call_done("inclusive_scan(int, " + n_str(kTechniqueN) + "), the technique check's call");
    grading::profile_bench_calls<SpeedBench>("inclusive_scan(int, " + n_str(kBenchN) + "), the speed checks' first calls");
}
