// Lab 04 checks — matrix transpose. One TEST_CASE per rubric item (rubric.json beside this file).
//
// A transpose moves bits and computes nothing, so correctness is exact equality with a host
// transpose of fresh random input, at tiny, thin, ragged and non-square sizes. Outputs sit between
// guard zones large enough to catch any store a missing edge check can make. Speed is judged only
// as ratios to the naive transpose and to cudaMemcpy device to device, timed interleaved in this run.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "transpose.cuh"

#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grading.hpp"
#include "kernel_trace.hpp"
#include "guarded_buffer.hpp"
#include "huge_input.hpp"
#include "random.hpp"
#include "residues.hpp"
#include "speed.hpp"
#include "verify.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using grading::Failure;

namespace {

// Speed thresholds, calibrated on an NVIDIA H100 80GB HBM3 and checked on an NVIDIA H200, 8192 x 8192,
// counting read + write. H100: the reference (padded [32][33] tile) 2717 GB/s, the unpadded [32][32]
// tile 1691-1704, the naive transpose 456, cudaMemcpy 2901: the reference 5.96x naive and 0.94x memcpy,
// the unpadded tile 3.70x and 0.58x. H200: the reference 6.28x naive and 0.85-0.88x memcpy (memcpy
// gains more from the H200's bandwidth than a transpose does). Each threshold leaves the reference at
// least 25% above it on both (H100 32% and 45%, H200 40% and 31%), while the naive transpose and the
// unpadded tile fall short of both.
constexpr double kMinSpeedupOverNaive = 4.5;  // naive time / student time
constexpr double kMinFractionOfCopy = 0.65;   // memcpy time / student time
// The timed calls, counted by the GPU's performance monitors (speed.hpp): the least shared-memory load
// and store wavefronts, each, for each warp-level memory instruction.
constexpr double kTimedSharedWavefronts = 0.1;
// ... and at most this many times the wavefronts of a conflict-free tile (one for every 32 words stored,
// and as many loaded): 1 + the Nsight Compute check's 0.40 replays a wavefront.
constexpr double kTimedConflictFactor = 1.4;
// ... and, for each call, at least this share of the load and store wavefronts of a tile that holds every
// element (one for every 32 words, whatever the layout or vector width: a wavefront moves at most 128
// bytes). The reference shows 1.01 and 1.00 on an H100; a kernel that sends only part of the matrix through
// its tile shows that part.
constexpr double kTimedStagedShare = 0.9;

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("speed: faster than the naive transpose", kMinSpeedupOverNaive);
GRADING_THRESHOLD("speed: close to cudaMemcpy device to device", kMinFractionOfCopy);
constexpr int kBenchSide = 8192;              // 8192 x 8192 floats: 256 MiB each way, far larger than L2

// A matrix shape: the input is rows x cols, the output cols x rows.
struct Shape {
    int rows, cols;
    std::size_t elements() const { return std::size_t(rows) * std::size_t(cols); }
    std::string str() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

// What one size taught: whether it was right, and whether its wrong elements were never written.
struct Trial {
    Shape shape;
    bool ok;
    bool only_unwritten;  // every mismatch still holds the poison pattern
};

// "in[r][c]" when @p value occurs exactly once in the input, else "": tells a student where a wrong
// output value came from (random floats repeat now and then, so a repeated value says nothing).
std::string provenance(const std::vector<float>& in, Shape s, float value) {
    std::size_t found = 0, where = 0;
    for (std::size_t i = 0; i < in.size() && found < 2; ++i)
        if (std::memcmp(&in[i], &value, sizeof value) == 0) ++found, where = i;
    if (found != 1) return "";
    return "in[" + std::to_string(where / std::size_t(s.cols)) + "][" + std::to_string(where % std::size_t(s.cols)) + "]";
}

// The first mismatches of @p c, each with the input element its value came from when that is known.
std::string describe_mismatches(const course::Comparison& c, const std::vector<float>& in, Shape s) {
    std::string text = s.str() + ": " + c.summary("out");
    for (std::size_t k = 0; k < c.first.size() && k < 2; ++k) {
        const auto& m = c.first[k];
        const std::string from = provenance(in, s, static_cast<float>(m.got));
        if (from.empty()) continue;
        const std::size_t out_row = m.index / std::size_t(s.rows), out_col = m.index % std::size_t(s.rows);
        text += "; out" + c.index_string(m.index) + " holds " + from + " but should hold in[" + std::to_string(out_col) +
                "][" + std::to_string(out_row) + "]";
    }
    return text;
}

// Guard zones wide enough that every store a missing edge check can make lands in one: indices up
// to (cols + 31) * rows + 30, i.e. less than 32 * (rows + 1) past the end (and the default 256 bytes
// at the least).
std::size_t output_guard(Shape s) { return std::max<std::size_t>(64, 32 * (std::size_t(s.rows) + 1)); }

// Likewise for loads: the input is followed by 32 * (cols + 1) poisoned floats, so a missing edge
// check on the loads reads harmless padding instead of crashing at random.
std::size_t input_slack(Shape s) { return 32 * (std::size_t(s.cols) + 1); }

// Runs the student's transpose of @p host (rows x cols) into a poisoned, guarded output. Returns the
// output, or nullopt when the run failed (the failure is recorded).
std::optional<std::vector<float>> student_transpose(const std::vector<float>& host, Shape s) {
    course::DeviceBuffer<float> in(s.elements() + input_slack(s));
    in.fill_bytes(course::kPoisonByte);
    in.upload(host);
    course::GuardedBuffer<float> out(s.elements(), output_guard(s));
    const std::string what = "transpose(rows = " + std::to_string(s.rows) + ", cols = " + std::to_string(s.cols) + ")";
    if (!grading::run_student([&] { lab04::transpose(in.data(), out.data(), s.rows, s.cols); }, what))
        return std::nullopt;
    if (const auto v = out.check_guards()) {
        std::string where = v->describe();
        if (!v->before)
            where += ", i.e. out[" + std::to_string(v->element_offset / s.rows) + "][" +
                     std::to_string(v->element_offset % s.rows) + "] of a " + s.str() + " input's " +
                     std::to_string(s.cols) + " x " + std::to_string(s.rows) + " output";
        grading::fail(Failure::OutOfBoundsWrite, what + " " + where,
                      "a store went past the output: in the edge tiles, store only where out_row < cols AND "
                      "out_col < rows (out is cols x rows), not just one of the two");
        return std::nullopt;
    }
    return out.download();
}

// out[c][r] = in[r][c]; out has row width rows.
std::vector<float> host_transpose(const std::vector<float>& in, Shape s) {
    std::vector<float> out(in.size());
    for (std::size_t r = 0; r < std::size_t(s.rows); ++r)
        for (std::size_t c = 0; c < std::size_t(s.cols); ++c) out[c * std::size_t(s.rows) + r] = in[r * std::size_t(s.cols) + c];
    return out;
}

// A hint from which shapes failed, or "" when the pattern says nothing specific.
std::string shape_pattern_hint(const std::vector<Trial>& trials) {
    bool any_fail = false, any_pass = false, all_unwritten = true;
    bool fails_only_ragged = true, aligned_multi_tile_passes = false;  // ragged: rows or cols not a multiple of 32
    bool fails_only_non_square = true, square_multi_tile_passes = false;
    bool fails_only_multi_tile = true, single_tile_passes = false;
    for (const Trial& t : trials) {
        const bool ragged = t.shape.rows % lab04::kTile != 0 || t.shape.cols % lab04::kTile != 0;
        const bool square = t.shape.rows == t.shape.cols;
        const bool single_tile = t.shape.rows <= lab04::kTile && t.shape.cols <= lab04::kTile;
        if (t.ok) {
            any_pass = true;
            if (!ragged && !single_tile) aligned_multi_tile_passes = true;
            if (square && !single_tile) square_multi_tile_passes = true;
            if (single_tile) single_tile_passes = true;
        } else {
            any_fail = true;
            all_unwritten = all_unwritten && t.only_unwritten;
            if (!ragged) fails_only_ragged = false;
            if (square) fails_only_non_square = false;
            if (single_tile) fails_only_multi_tile = false;
        }
    }
    if (!any_fail) return "";
    if (!any_pass && all_unwritten)
        return "no output element was written: launch transpose_tile_kernel from transpose() (TODO 5) and store "
               "the tile to out (TODO 4)";
    if (fails_only_ragged && aligned_multi_tile_passes)
        return "wrong only when rows or cols is not a multiple of 32: the edge tiles are partial. Round the grid up "
               "(ceil_div), load only where row < rows && col < cols, store only where out_row < cols && out_col < rows";
    if (fails_only_non_square && square_multi_tile_passes)
        return "right for square matrices only: out is cols x rows, so its row stride is rows (not cols), out_row "
               "runs up to cols and out_col up to rows";
    if (fails_only_multi_tile && single_tile_passes)
        return "right when one tile covers the matrix, wrong with several: block (bx, by) reads input tile (by, bx) "
               "and must write output tile (bx, by): swap the block indices for the store, not the thread indices";
    if (all_unwritten)
        return "some output elements were never written: does the grid cover every tile, and does every thread "
               "store all kTile / kBlockRows of its elements?";
    return "";
}

constexpr const char* kRaceHint =
    "the output changes between runs on the same input: a race. Each warp reads tile elements that other warps "
    "wrote: put __syncthreads() between the loads into the tile and the reads from it";

// Transposes fresh random input at each shape, the last shape twice: two outputs of the same input
// that differ betray a race. Reports one wrong_result for all failing shapes together.
void check_shapes(const std::vector<Shape>& shapes, const std::string& tag) {
    std::vector<Trial> trials;
    std::string details, race;
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        const Shape s = shapes[k];
        const auto in = course::uniform_floats(s.elements(), grading::seed_for(tag, k));
        const auto got = student_transpose(in, s);
        if (!got) return;
        if (k + 1 == shapes.size()) {
            const auto again = student_transpose(in, s);
            if (!again) return;
            std::size_t differ = 0;
            for (std::size_t i = 0; i < s.elements(); ++i)
                differ += std::memcmp(&(*got)[i], &(*again)[i], sizeof(float)) != 0;
            if (differ > 0)
                race = s.str() + ": two runs on the same input gave outputs that differ in " + std::to_string(differ) +
                       " elements";
        }
        const auto expected = host_transpose(in, s);
        course::Comparison c = course::compare(got->data(), expected.data(), s.elements(), course::Tolerance::exact(), 3);
        c.row_width = std::size_t(s.rows);
        trials.push_back({s, c.ok(), c.unwritten == c.mismatches});
        if (c.ok()) continue;
        if (details.size() < 600) details += (details.empty() ? "" : " | ") + describe_mismatches(c, in, s);
        else if (details.back() != '.') details += " | ...";
    }
    if (details.empty() && race.empty()) return;
    // The shapes that failed usually name the bug; failing that, a result that changes between runs does.
    std::string hint = shape_pattern_hint(trials);
    if (hint.empty() && !race.empty()) hint = kRaceHint;
    if (hint.empty())
        hint = "compare the first wrong elements with the input elements they hold (printed above) and your "
               "load and store indices";
    grading::fail(Failure::WrongResult, race.empty() ? details : details.empty() ? race : race + " | " + details, hint);
}

// The widths whose remainders a kernel's paths depend on, for rows and for cols alike: float2 and float4
// (2, 4), the lab's tile (kTile = 32) and a tile of two (64, as 2 x 2 blocks of float2 make). residues.hpp
// derives 64 shapes in which rows and cols each run through every residue mod 64, and the two together
// through every pair of residues mod 8 (odd rows beside even cols, a multiple of 32 beside a ragged side).
const std::vector<std::size_t> kResidueWidths = {2, 4, std::size_t(lab04::kTile), 2 * std::size_t(lab04::kTile)};

// The widths of the vector paths alone: a float2 path applies where a side is even, a float4 one where it is
// a multiple of 4 (the tiles' residues matter at the edges, which the small shapes cover).
const std::vector<std::size_t> kVectorWidths = {2, 4};

// The residue shapes, rows and cols each 64 * base + r with their bases taken in turn.
std::vector<Shape> residue_shapes(const std::vector<std::size_t>& row_bases, const std::vector<std::size_t>& col_bases) {
    std::vector<Shape> shapes;
    for (const auto& s : grading::residue_shapes<2>({kResidueWidths, kResidueWidths}, {row_bases, col_bases}))
        shapes.push_back({int(s[0]), int(s[1])});
    return shapes;
}

// The shapes of the two exact checks, in the order they run (the bank-conflict workload runs the same).
std::vector<Shape> thin_shapes() { return {{1, 1}, {1, 32}, {32, 1}, {1, 100003}, {100003, 1}, {7, 5000}, {5000, 7}}; }
std::vector<Shape> ragged_shapes() {
    std::vector<Shape> shapes = {{32, 32}, {96, 96}, {64, 96}, {33, 65}, {65, 33}, {31, 33}, {255, 257}, {1000, 777}, {4097, 2049}};
    // The residue shapes, 64 to 191 a side: each has whole 64 x 64 tiles and partial ones.
    const std::vector<Shape> residues = residue_shapes({1, 2}, {2, 1});
    shapes.insert(shapes.end() - 1, residues.begin(), residues.end());
    const auto hidden = grading::hidden_sizes("lab04-exact", 4, 1, 3000);
    for (std::size_t i = 0; i + 1 < hidden.size(); i += 2) shapes.insert(shapes.end() - 1, Shape{int(hidden[i]), int(hidden[i + 1])});
    return shapes;
}
constexpr Shape kTechniqueShape{1024, 2048};

// The shapes past 2^31 elements, where an `int` product of a row and a width wraps: rows and cols each take
// every remainder mod 4 (kVectorWidths), the two together every pair of parities, so that each vector path
// (taken where rows, cols or both are even, or multiples of 4) crosses 2^31 as well as the scalar path:
// (2^15 + 64 + r) x (2^16 + 64 + c), 32832 x 65600 to 32835 x 65603. The whole 64 x 64 (or 128 x 128)
// tiles alone pass 2^31 elements, in the input (row * cols) and in the output (col * rows) alike.
constexpr std::size_t kHugeRows = (std::size_t(1) << 15) + 64, kHugeCols = (std::size_t(1) << 16) + 64;
static_assert(kHugeRows / 128 * 128 * kHugeCols > (std::size_t(1) << 31) &&
                  kHugeCols / 128 * 128 * kHugeRows > (std::size_t(1) << 31),
              "whole tiles past 2^31 elements on both sides of the transpose");
std::vector<Shape> huge_shapes() {
    const std::size_t period = grading::residue_period(kVectorWidths);
    const std::vector<std::size_t> row_base = {kHugeRows / period}, col_base = {kHugeCols / period};
    std::vector<Shape> shapes;
    for (const auto& s : grading::residue_shapes<2>({kVectorWidths, kVectorWidths}, {row_base, col_base}))
        shapes.push_back({int(s[0]), int(s[1])});
    return shapes;
}

// The exact check at huge_shapes(), against the naive transpose, where the GPU had an input, an output and
// a reference of the largest of them free when grading started (decided before any of the lab's code ran;
// "not run on this GPU" otherwise). The three buffers serve every shape; compared on the GPU, so nothing but
// counts and the first mismatch goes to the host. Reports one wrong_result for all failing shapes together.
void check_huge_shapes() {
    const std::vector<Shape> shapes = huge_shapes();
    std::size_t n = 0;
    for (const Shape& s : shapes) n = std::max(n, s.elements());
    const std::size_t needs = 3 * n * sizeof(float) + (std::size_t(1) << 30);  // with 1 GiB to spare
    std::string names;
    for (const Shape& s : shapes) names += (names.empty() ? "" : ", ") + s.str();
    if (!grading::run_if_it_fitted("the shapes past 2^31 elements (" + names + ")", needs)) return;
    // With the GPU alone: the shapes were sized by its free memory, which must be free for them now too.
    const grading::GpuAlone alone;
    try {
        course::DeviceBuffer<float> in(n), expected(n), out(n);
        std::string wrong, right;
        for (const Shape& s : shapes) {
            const std::string what = "transpose(rows = " + std::to_string(s.rows) + ", cols = " + std::to_string(s.cols) +
                                     "), past 2^31 elements";
            out.fill_bytes(course::kPoisonByte);  // an element never written reads back as NaN
            course::fill_uniform_device(in.data(), s.elements(), grading::seed_for("lab04-huge", s.elements()), -1.0f, 1.0f);
            lab04::baseline::naive_transpose(in.data(), expected.data(), s.rows, s.cols);
            if (!grading::run_student_past_2_31([&] { lab04::transpose(in.data(), out.data(), s.rows, s.cols); }, what)) return;
            const auto c = grading::compare_on_device(out.data(), expected.data(), s.elements(), 0.0f);
            const std::string residues =
                " (rows % 4 = " + std::to_string(s.rows % 4) + ", cols % 4 = " + std::to_string(s.cols % 4) + ")";
            if (c.ok()) {
                right += (right.empty() ? "" : ", ") + s.str() + residues;
                continue;
            }
            const std::size_t r = c.first / std::size_t(s.rows), col = c.first % std::size_t(s.rows);
            wrong += (wrong.empty() ? "" : " | ") + s.str() + residues + ": " + std::to_string(c.mismatches) + " of " +
                     std::to_string(s.elements()) + " elements differ; first: out[" + std::to_string(r) + "][" +
                     std::to_string(col) + "] = " + std::to_string(c.got) + " (expected " + std::to_string(c.expected) + ")";
        }
        if (!wrong.empty())
            grading::fail(Failure::WrongResult,
                          "past 2^31 elements, wrong at " + wrong + (right.empty() ? "" : "; right at " + right),
                          grading::kHugeIndexHint);
    } catch (const course::CudaError& e) {
        if (e.code() != cudaErrorMemoryAllocation) throw;
        grading::fail_missing_memory("the matrices of the shapes past 2^31 elements");
    }
}

// The technique check's call: transpose of kTechniqueShape, input followed by poison, guarded output.
void technique_call(const std::function<void(const float*, float*)>& run) {
    const auto in = course::upload_with_poisoned_tail(
        course::uniform_floats(kTechniqueShape.elements(), grading::seed_for("lab04-technique")));
    course::GuardedBuffer<float> out(kTechniqueShape.elements());
    run(in.data(), out.data());
}
}  // namespace

TEST_CASE("exact transpose of 1x1, 1xN and Nx1 matrices") {
    // One-row and one-column matrices leave all but one row (or column) of every tile empty; the thin
    // 7 x 5000 shapes leave most of each tile empty too. 1 x 32 and 32 x 1 fit in one tile.
    check_shapes(thin_shapes(), "lab04-thin");
}

TEST_CASE("exact transpose of non-square sizes that are not multiples of 32" * doctest::test_suite("measured")) {
    // 32 x 32, 96 x 96 and 64 x 96 are controls made of whole 32 x 32 tiles; every other shape has partial
    // edge tiles, and the non-square ones tell rows from cols. Then the residue shapes: every residue of rows
    // and of cols mod 64.
    // With the instructor's secret, two hidden shapes join them, before the last.
    check_shapes(ragged_shapes(), "lab04-ragged");
    if (grading::current_check_failed()) return;
    // Then, past 2^31 elements, one shape for each residue class of the vector widths (huge_shapes()).
    check_huge_shapes();
}

TEST_CASE("transpose_tile_kernel stages its tile in shared memory") {
    // Judged on what really runs: the kernels transpose launches, traced, must be the lab's own, and
    // those with shared memory must do most of the work. (A 32 x 33 float tile is 4224 bytes, an
    // unpadded 32 x 32 one 4096.)
    technique_call([](const float* in, float* out) {
        grading::check_shared_memory_technique(
            "04", [&] { lab04::transpose(in, out, kTechniqueShape.rows, kTechniqueShape.cols); }, "transpose(1024 x 2048)",
            lab04::graded_kernel(),
            "a transpose straight from global memory cannot coalesce both its loads and its stores: declare "
            "`__shared__ float tile[kTile][kTile + 1];`, load rows into it, and store its columns");
    });
}

namespace {
// Shared set-up of the two speed checks: random 8192 x 8192 inputs in two buffers, refilled with fresh
// contents for every call of yours and transposed by the naive kernel first, the contenders, and a gate:
// your output at this size must equal the naive transpose's, bit for bit. Every timed call of yours is
// checked (speed.hpp).
struct SpeedBench {
    // The technique in the timed calls (speed.hpp, timed_counters.hpp): every element is stored into a
    // shared tile and read back from it.
    // And the tile is free of bank conflicts there: each element stored and loaded once, 32 to a wavefront,
    // within the Nsight Compute check's allowance of replays.
    static grading::TimedTechnique timed_technique() {
        return {[](const grading::timed_counters::Totals& t) {
                    std::string wrong = grading::timed_counters::staged_shortfall(t, kTimedSharedWavefronts,
                                                                                  kTimedSharedWavefronts);
                    if (wrong.empty())
                        wrong = grading::timed_counters::per_call_shortfall(
                            t, kTimedStagedShare * double(kN) / 32, kTimedStagedShare * double(kN) / 32,
                            "a tile that every element goes through");
                    if (wrong.empty())
                        wrong = grading::timed_counters::conflicted_excess(t, double(kN) / 32, kTimedConflictFactor);
                    return wrong;
                },
                "in every call, timed or not, write each tile into a padded __shared__ array and read it back "
                "transposed, not straight from global memory, and with the padding that keeps it free of bank conflicts"};
    }
    static constexpr std::size_t kN = std::size_t(kBenchSide) * kBenchSide;
    // Input, reference, your output and the peers' output a slot.
    static int slot_count() { return grading::bench_slots(4 * kN * sizeof(float)); }
    grading::BenchInputs inputs{kN, "lab04-bench", -1.0f, 1.0f, slot_count()};
    std::vector<course::DeviceBuffer<float>> references;  // each slot's transpose, by the naive kernel
    std::vector<course::DeviceBuffer<float>> outs;        // your output a slot
    std::vector<course::DeviceBuffer<float>> peer_outs;   // the baseline's and the peer's output a slot
    int current = 0;  // the input of the student's next call (in this process)
    bool correct = false;

    explicit SpeedBench(const grading::BenchStart&) {
        for (int i = 0; i < slot_count(); ++i) {
            references.emplace_back(kN);
            outs.emplace_back(kN);
            peer_outs.emplace_back(kN);
            lab04::baseline::naive_transpose(inputs[i], references.back().data(), kBenchSide, kBenchSide);
        }
        course::GuardedBuffer<float> student_out(kN);  // poisoned: an unwritten element reads back as NaN
        const std::string what = "transpose(rows = cols = " + std::to_string(kBenchSide) + ")";
        if (!grading::run_student([&] { lab04::transpose(inputs[0], student_out.data(), kBenchSide, kBenchSide); }, what))
            return;
        const std::vector<float> got = student_out.download(), expected = references[0].download();
        correct = std::memcmp(got.data(), expected.data(), kN * sizeof(float)) == 0;
        if (!correct) {
            course::Comparison c = course::compare(got.data(), expected.data(), kN, course::Tolerance::exact());
            c.row_width = kBenchSide;
            grading::fail(Failure::WrongResult, what + ": " + c.summary("out"),
                          "if the exact checks at smaller sizes pass, suspect a race (the __syncthreads() between "
                          "writing the tile and reading it) or a flat index that overflows int (use std::size_t)");
        }
    }
    std::string verify(int i) {
        const auto k = static_cast<std::size_t>(i);
        const auto c = grading::compare_on_device(outs[k].data(), references[k].data(), kN, 0.0f);
        if (!c.ok()) return "the transpose differs from the naive kernel's: " + c.summary("out", kN);
        return inputs.changed(i);
    }
    std::vector<grading::Timings> measure(const std::vector<grading::Criterion>& criteria) {
        const grading::VerifiedCalls calls{slot_count(),
                                           [&](int slot, int call) {
                                               const auto k = static_cast<std::size_t>(slot);
                                               inputs.refresh(slot, call);
                                               lab04::baseline::naive_transpose(inputs[slot], references[k].data(),
                                                                                kBenchSide, kBenchSide);
                                               current = slot;
                                               outs[k].fill_bytes(course::kPoisonByte);
                                           },
                                           [&](int slot) { return verify(slot); }};
        const auto mine = [&](int s) { return outs[static_cast<std::size_t>(s)].data(); };
        // The baseline and the peer write a buffer a slot too: every contender touches as much memory.
        const auto theirs = [&](int s) { return peer_outs[static_cast<std::size_t>(s)].data(); };
        if (grading::isolation::enabled()) {
            // All three across the same boundary, each reading the slot's input.
            using grading::isolation::Host;
            using grading::isolation::forward;
            const grading::Contenders across = {
                {[&](int s) { lab04::transpose(inputs[s], mine(s), kBenchSide, kBenchSide); }, Host::Student,
                 [&](int s) -> const void* { return mine(s); }, kN * sizeof(float)},
                {[&](int s) { forward(Host::Peers, "naive_transpose", inputs[s], theirs(s), kBenchSide, kBenchSide); },
                 Host::Peers, [&](int s) -> const void* { return theirs(s); }, kN * sizeof(float)},
                {[&](int s) { forward(Host::Peers, "device_copy", inputs[s], theirs(s), kN); }, Host::Peers,
                 [&](int s) -> const void* { return theirs(s); }, kN * sizeof(float), true}};
            return grading::measure_against(across, criteria, calls);
        }
        return grading::measure_against([&] { lab04::transpose(inputs[current], mine(current), kBenchSide, kBenchSide); },
                                        [&] { lab04::baseline::naive_transpose(inputs[0], theirs(0), kBenchSide, kBenchSide); },
                                        [&] { lab04::baseline::device_copy(inputs[0], theirs(0), kN); }, criteria, calls);
    }
    static std::string figures(const grading::Timings& t) {
        const double bytes = 2.0 * static_cast<double>(kN) * sizeof(float);  // read once, written once
        return std::to_string(kBenchSide) + " x " + std::to_string(kBenchSide) + ", counting read + write: yours " +
               grading::fixed(course::gb_per_s(bytes, t.student_ms), 0) + " GB/s, naive " +
               grading::fixed(course::gb_per_s(bytes, t.baseline_ms), 0) + " GB/s, cudaMemcpy " +
               grading::fixed(course::gb_per_s(bytes, t.peer_ms), 0) + " GB/s (medians, " + std::to_string(t.rounds) +
               " round(s))";
    }
};

// The two speed checks' one bench, set up and measured by whichever of them runs first.
grading::SharedSpeed& speed() {
    static grading::SharedSpeed shared(grading::measure_bench<SpeedBench>(
        {{grading::speedup_over_baseline, kMinSpeedupOverNaive}, {grading::fraction_of_peer, kMinFractionOfCopy}}));
    return shared;
}
}  // namespace

TEST_CASE("speed: faster than the naive transpose" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(0);
    if (!t) return;
    grading::judge_speed(grading::speedup_over_baseline(*t), kMinSpeedupOverNaive, "x",
                         "speed-up over the naive transpose",
                         SpeedBench::figures(*t),
                         "an unpadded [32][32] tile makes every column read a 32-way bank conflict: pad it to "
                         "[kTile][kTile + 1]. Without a tile at all, the stores cannot be coalesced");
}

TEST_CASE("speed: close to cudaMemcpy device to device" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(1);
    if (!t) return;
    grading::judge_speed(grading::fraction_of_peer(*t), kMinFractionOfCopy, "x memcpy",
                         "speed relative to cudaMemcpy device to device",
                         SpeedBench::figures(*t),
                         "pad the tile to [kTile][kTile + 1] so that a column read hits 32 different banks, and "
                         "give each thread kTile / kBlockRows = 4 elements so several loads are in flight");
}

// The runner's memory and race check runs this test case alone, under compute-sanitizer (memcheck,
// racecheck; see the rubric's "sanitizer" item): the lab's code at small sizes, on buffers of
// exactly the data's size, so that a read even one element past the end falls outside every allocation.
// Graded runs never include it; its results are judged by the sanitizer, not here.
// Its shapes: four edge shapes and the 64 residue shapes with sides up to 127: about 220,000 input
// elements in all (as many again of output).
TEST_CASE("sanitizer workload" * doctest::test_suite("sanitizer")) {
    std::vector<Shape> shapes = {{1, 1}, {33, 65}, {64, 96}, {97, 31}};
    const std::vector<Shape> residues = residue_shapes({0, 1}, {1, 0});
    shapes.insert(shapes.end(), residues.begin(), residues.end());
    for (const Shape& s : shapes) {
        const int rows = s.rows, cols = s.cols;
        const course::DeviceBuffer<float> in(
            course::uniform_floats(std::size_t(rows) * cols, grading::seed_for("lab04-sanitizer", rows)));
        course::DeviceBuffer<float> out(std::size_t(rows) * cols);
        const std::string what = "transpose(rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols) + ")";
        if (!grading::run_student([&] { lab04::transpose(in.data(), out.data(), rows, cols); }, what)) return;
    }
}

// The runner's Nsight Compute checks run this test case alone (the rubric's "shared_memory_use" and
// "bank_conflicts" items), after the grader's probe kernel. It makes exactly the calls the graded run
// makes first, in the same order, on the same inputs: the two exact checks (thin and ragged shapes,
// hidden ones included, each output checked) and the technique check's 1024 x 2048; then what the speed
// checks make first: the gate's 8192 x 8192 in a new process and one batch of calls, one an input slot,
// each verified. So a lab cannot tell this process from a graded one by its first calls, and the kernels
// profiled are those that compute the transpose, at the benchmark's size too. Its figure is the number
// of elements transposed: the runner measures the conflicts against the shared-memory traffic a
// transpose needs (a load and a store wavefront for every 32 elements), not against the traffic the lab
// chose to make. Graded runs never include it.
TEST_CASE("profile workload" * doctest::test_suite("profile")) {
    double elements = 0;
    for (const auto& shapes : {thin_shapes(), ragged_shapes()}) {
        for (const Shape& s : shapes) elements += double(s.elements());
        elements += double(shapes.back().elements());  // the last shape runs twice
    }
    check_shapes(thin_shapes(), "lab04-thin");
    if (grading::current_check_failed()) return;
    grading::profile_call_done("the exact check's thin shapes");
    check_shapes(ragged_shapes(), "lab04-ragged");
    if (grading::current_check_failed()) return;
    grading::profile_call_done("the exact check's ragged shapes");
    technique_call([](const float* in, float* out) {
        grading::run_student([&] { lab04::transpose(in, out, kTechniqueShape.rows, kTechniqueShape.cols); },
                             "transpose(1024 x 2048)");
    });
    if (grading::current_check_failed()) return;
    grading::profile_call_done("transpose(1024 x 2048), the technique check's call");
    elements += double(kTechniqueShape.elements());
    grading::profile_bench_calls<SpeedBench>("transpose(8192 x 8192), the speed checks' first calls");
    if (grading::current_check_failed()) return;
    elements += double(SpeedBench::kN) * (1 + SpeedBench::slot_count());
    grading::measured(elements, 0, "elements", true);
}
