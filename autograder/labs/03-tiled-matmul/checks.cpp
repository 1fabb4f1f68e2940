// Lab 03 checks — tiled matrix multiplication. One TEST_CASE per rubric item (rubric.json beside this file).
//
// Correctness comes first and is exact where it can be: integer-valued matrices have an exact float
// product in any order of summation, so at the edge sizes, and past 2^31 and 2^32 elements (against
// cublasSgemm on the GPU), any difference is a bug, not rounding.
// Random floats are then compared within a rounding bound that grows with K: against float64 on the
// CPU at small sizes, against cublasSgemm (pedantic FP32) at 1000^3 and 4096^3, where a CPU reference
// would cost seconds. Speed is judged only as ratios to the naive kernel and to cublasSgemm, timed
// interleaved in this run at 4096^3.
#include <doctest/doctest.h>

#include "baselines.cuh"
#include "tiled_matmul.cuh"

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
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using grading::Failure;

namespace {

// Speed thresholds, calibrated on an NVIDIA H100 80GB HBM3 (132 SMs) at 4096^3 (see the lab's
// README): cublasSgemm in pedantic FP32 48.2-49.2 TFLOP/s, the naive kernel 5.4, a basic 16 x 16
// tiled kernel 8.1 (only 1.5x: L1 and L2 serve most of the naive kernel's re-reads), the
// register-blocked reference 40.1-40.4 (7.42x naive, 0.83 of cuBLAS). So the reference clears both
// thresholds by >= 25% (86% and 66%), while the naive kernel (1.0x, 0.11) and the basic tiled one
// (1.5x, 0.16) fail both; 1-D register blocking (about 0.35 of cuBLAS in published worklogs) fails
// the second.
constexpr double kMinSpeedupOverNaive = 4.0;   // naive time / student time
constexpr double kMinFractionOfCublas = 0.50;  // cuBLAS time / student time
// The timed calls, counted by the GPU's performance monitors (speed.hpp): the least shared-memory load
// wavefronts for each warp-level memory instruction.
constexpr double kTimedSharedLoads = 0.25;
// ... and, for each call, at least this share of the store wavefronts that tiles of A and B need at the
// largest block tile of C a block can hold. A block's accumulators fit in an SM's 65536 registers, so its
// tile of C is at most 65536 elements, and A and B are staged at least M N K (1/BM + 1/BN) >= 2 M N K / 256
// times (BM = BN = 256), 32 words to a wavefront at best. The reference (128 x 128 tiles) shows 3.0x that
// floor on an H100; a kernel that stages only a part of its operands through shared memory shows less.
constexpr double kTimedStagedShare = 0.9;
constexpr double kLargestBlockTile = 256;  // sqrt(65536): the side of the largest square tile of C a block holds

// The rubric (rubric.json "threshold") must name the same values: the rubric test compares.
GRADING_THRESHOLD("speed: faster than the naive one-thread-per-output kernel", kMinSpeedupOverNaive);
GRADING_THRESHOLD("speed: close to cublasSgemm in FP32 (no TF32)", kMinFractionOfCublas);
constexpr int kBenchSize = 4096;               // M = N = K: each matrix is 64 MiB, larger than the 50 MB L2

constexpr double kUnitRoundoff = 1.0 / 16777216.0;  // u = 2^-24 for float
constexpr double kLambda = 8.0;                     // confidence parameter of the probabilistic bound

struct Shape {
    int M, N, K;
    std::size_t a_size() const { return std::size_t(M) * K; }
    std::size_t b_size() const { return std::size_t(K) * N; }
    std::size_t c_size() const { return std::size_t(M) * N; }
    std::string str() const { return "M=" + std::to_string(M) + " N=" + std::to_string(N) + " K=" + std::to_string(K); }
};

// The edge and odd sizes of the exact check, chosen so that the pattern of failures points at a cause.
const std::vector<Shape> kEdgeShapes = {
    {1, 1, 1},        // one element
    {17, 33, 65},     // smaller than most tiles, every dimension odd
    {65, 33, 17},     //
    {1, 300, 129},    // C is a single row
    {300, 1, 129},    // C is a single column
    {64, 64, 1},      // K = 1: one partial tile along K
    {72, 40, 24},     // multiples of 8, not of 16
    {48, 80, 112},    // multiples of 16, not of 32
    {100, 50, 64},    // K a multiple of 64, M and N not of 8
    {128, 128, 64},   // one 128 x 128 tile of C
    {256, 256, 256},  // multiples of 128
    {129, 130, 131},  // one past a 128 tile in every dimension
    {255, 257, 31},   //
    {100, 96, 1000},  // many tiles along K
};

// Shapes whose grid of tiles has several groups in each direction, the last one short: 19 tiles of 128
// (16 + 3: short for groups of 4, 8 and 16), 38 of 64 and 10 of 256. A kernel that orders its blocks in
// groups of tile rows or columns (for the L2) and sizes the last group wrongly leaves tiles of C
// uncomputed only where there are several groups and the last is short.
const std::vector<Shape> kGroupShapes = {{128 * 19 - 5, 1100, 64}, {1100, 128 * 19 - 5, 64}};

// The widths whose remainders a kernel's paths depend on, in each of M, N and K: float2, float4, 8-wide
// loads along K, tiles of 16, 32 and 64 (and so the residues mod 64 of 128- and 256-wide tiles).
// residues.hpp derives 64 shapes in which each dimension runs through every residue mod 64 (and the three
// together through every triple of residues mod 4), instead of the 64^3 of every combination.
const std::vector<std::size_t> kResidueWidths = {2, 4, 8, 16, 32, 64};

// The residue shapes, each dimension 64 * base + r with its bases taken in turn.
std::vector<Shape> residue_shapes(const std::array<std::vector<std::size_t>, 3>& bases) {
    std::vector<Shape> shapes;
    for (const auto& s : grading::residue_shapes<3>({kResidueWidths, kResidueWidths, kResidueWidths}, bases))
        shapes.push_back({int(s[0]), int(s[1]), int(s[2])});
    return shapes;
}

// Random-float sizes: float64 on the CPU up to a few million multiply-adds, cuBLAS beyond.
const std::vector<Shape> kCpuReferenceShapes = {{17, 33, 65}, {129, 130, 131}, {64, 300, 777}};
const std::vector<Shape> kCublasReferenceShapes = {{1000, 1000, 1000}, {kBenchSize, kBenchSize, kBenchSize}};

// A, B on the device and the same values on the host.
struct Problem {
    Shape shape;
    course::DeviceBuffer<float> A, B;
    std::vector<float> host_A, host_B;
};

// Integer values in [-8, 8] (exact products), or uniform floats in [-1, 1).
Problem make_problem(const Shape& s, const std::string& tag, bool integers) {
    // Each matrix is followed by NaN: a kernel that reads past the end of A or B puts NaN into C.
    Problem p{s, course::DeviceBuffer<float>(s.a_size() + course::kInputTail),
              course::DeviceBuffer<float>(s.b_size() + course::kInputTail), {}, {}};
    course::poison_tail(p.A, s.a_size());
    course::poison_tail(p.B, s.b_size());
    const std::uint64_t salt = (std::uint64_t(s.M) * 1000003u + std::uint64_t(s.N)) * 1000003u + std::uint64_t(s.K);
    const std::uint64_t seed_a = grading::seed_for(tag + "-A", salt), seed_b = grading::seed_for(tag + "-B", salt);
    if (integers) {
        course::fill_integers_device(p.A.data(), s.a_size(), seed_a, -8, 8);
        course::fill_integers_device(p.B.data(), s.b_size(), seed_b, -8, 8);
    } else {
        course::fill_uniform_device(p.A.data(), s.a_size(), seed_a, -1.0f, 1.0f);
        course::fill_uniform_device(p.B.data(), s.b_size(), seed_b, -1.0f, 1.0f);
    }
    p.host_A = p.A.download();
    p.host_B = p.B.download();
    p.host_A.resize(s.a_size());
    p.host_B.resize(s.b_size());
    return p;
}

// C = A·B in float64 (exact for the integer inputs: every partial sum is an integer below 2^53).
std::vector<double> cpu_product(const Problem& p) {
    const auto [M, N, K] = p.shape;
    std::vector<double> C(p.shape.c_size(), 0.0);
    for (int i = 0; i < M; ++i) {
        double* c = C.data() + std::size_t(i) * N;
        for (int k = 0; k < K; ++k) {
            const double a = p.host_A[std::size_t(i) * K + k];
            const float* b = p.host_B.data() + std::size_t(k) * N;
            for (int j = 0; j < N; ++j) c[j] += a * b[j];
        }
    }
    return C;
}

// The largest row norm of A times the largest column norm of B: by Cauchy-Schwarz an upper bound on
// sum_k |A(i,k)| |B(k,j)| for every (i, j), at the cost of one pass over A and B.
double norm_product(const Problem& p) {
    const auto [M, N, K] = p.shape;
    double max_row = 0.0;
    for (int i = 0; i < M; ++i) {
        double sq = 0.0;
        const float* a = p.host_A.data() + std::size_t(i) * K;
        for (int k = 0; k < K; ++k) sq += double(a[k]) * a[k];
        max_row = std::max(max_row, sq);
    }
    std::vector<double> col(N, 0.0);
    for (int k = 0; k < K; ++k) {
        const float* b = p.host_B.data() + std::size_t(k) * N;
        for (int j = 0; j < N; ++j) col[j] += double(b[j]) * b[j];
    }
    return std::sqrt(max_row) * std::sqrt(*std::max_element(col.begin(), col.end()));
}

// How far a float result of C = A·B may be from the exact one, for any order of summation.
// Each C(i,j) is an inner product of length K. Rounding each of its K multiply-adds once (FMA), or
// a product and a sum, gives the deterministic bound gamma_K * S with gamma_K = K u / (1 - K u)
// and S = sum_k |A(i,k)| |B(k,j)| (Higham, "Accuracy and Stability of Numerical Algorithms",
// section 3.1). For random data the rounding errors behave like independent zero-mean variables,
// and Higham & Mary ("A new approach to probabilistic rounding error analysis", SISC 2019) show the
// bound lambda * sqrt(K) * u * S holds with overwhelming probability; lambda = 8 leaves typical
// errors hundreds of times inside it. We take the smaller of the two (the deterministic one for
// K <= 64), and S <= norm_product(). A result compared with cuBLAS carries rounding on both sides:
// twice the bound. Against float64 the reference's own error (2^29 times smaller) is added.
// A dropped, doubled or misplaced term (|A(i,k) B(k,j)| ~ 1/4) or a TF32 product (u = 2^-11)
// exceeds it at the small sizes, and a lost tile at every size.
double rounding_bound(const Problem& p, bool against_cublas) {
    const double K = p.shape.K;
    const double c = std::min(kLambda * std::sqrt(K), K / (1.0 - K * kUnitRoundoff));
    const double s = norm_product(p);
    return against_cublas ? 2.0 * c * kUnitRoundoff * s : (c * kUnitRoundoff + K * std::ldexp(1.0, -53)) * s;
}

// Runs the student's product into a poisoned, guarded C; nullopt when it failed (the failure is recorded).
std::optional<std::vector<float>> student_product(const Problem& p) {
    const Shape& s = p.shape;
    course::GuardedBuffer<float> C(s.c_size());  // an element never written reads back as NaN
    const std::string what = "tiled_matmul(" + s.str() + ")";
    if (!grading::run_student([&] { lab03::tiled_matmul(p.A.data(), p.B.data(), C.data(), s.M, s.N, s.K); }, what))
        return std::nullopt;
    if (const auto v = C.check_guards()) {
        grading::fail(Failure::OutOfBoundsWrite, what + " " + v->describe() + " (C has M x N = " +
                                                     std::to_string(s.c_size()) + " elements)",
                      "a thread of an edge block stored outside C: store only where row < M and col < N. "
                      "A column past N lands in the next row, and on the last row past the end of C");
        return std::nullopt;
    }
    return C.download();
}

// Whether one shape passed, and whether every mismatch was an element never written.
struct ShapeOutcome {
    Shape shape;
    bool ok;
    bool only_unwritten;
};

// A hint from the pattern of shapes that failed, or "" when the pattern says nothing specific. For the
// smallest tile edge t for which the pattern holds: every shape with K a multiple of t passes (the K
// tail), every shape with M and N multiples of t passes (the edges of C), or every shape with all
// three multiples of t passes (partial tiles in general).
std::string shape_pattern_hint(const std::vector<ShapeOutcome>& outcomes) {
    bool any_fail = false, all_unwritten = true;
    for (const auto& o : outcomes) {
        any_fail |= !o.ok;
        if (!o.ok) all_unwritten &= o.only_unwritten;
    }
    if (!any_fail) return "";
    if (all_unwritten)
        return "elements of C were never written (they still hold the grader's NaN poison): does the launcher launch "
               "the kernel, with a grid of ceil(N / tile) x ceil(M / tile) blocks, and does every thread whose (row, "
               "col) is inside C store its result?";
    // True when every shape with `property` passed and at least one of them has `witness` too.
    using ShapeTest = std::function<bool(const Shape&)>;
    auto pattern = [&](const ShapeTest& property, const ShapeTest& witness) {
        bool seen = false;
        for (const auto& o : outcomes) {
            if (!property(o.shape)) continue;
            if (!o.ok) return false;
            seen |= witness(o.shape);
        }
        return seen;
    };
    for (int t : {8, 16, 32, 64, 128}) {
        auto mul = [t](int x) { return x % t == 0; };
        if (pattern([&](const Shape& s) { return mul(s.K); }, [&](const Shape& s) { return !mul(s.M) || !mul(s.N); }))
            return "wrong only when K is not a multiple of " + std::to_string(t) +
                   " (every size with such a K passes, whatever M and N): the last, partial tile along K is lost or "
                   "wrong. Loop over ceil(K / tile) tiles, and load 0 for A(row, k) and B(k, col) where k >= K";
        if (pattern([&](const Shape& s) { return mul(s.M) && mul(s.N); }, [&](const Shape& s) { return !mul(s.K); }))
            return "wrong only when M or N is not a multiple of " + std::to_string(t) +
                   ": the blocks on the bottom and right edges of C. Launch ceil(M / tile) x ceil(N / tile) blocks, "
                   "load 0 for rows of A at or past M and columns of B at or past N, store only where row < M and "
                   "col < N";
        if (pattern([&](const Shape& s) { return mul(s.M) && mul(s.N) && mul(s.K); },
                    [](const Shape&) { return true; }))
            return "right when M, N and K are all multiples of " + std::to_string(t) +
                   ", wrong otherwise: check the partial tiles at the edges. Load 0 for every element of a tile "
                   "that lies outside A or B, and store only where row < M and col < N";
    }
    return "wrong at sizes that are multiples of any tile too: check the indexing. A(i, k) is A[i * K + k], B(k, j) "
           "is B[k * N + j], C(i, j) is C[i * N + j]; in tile t, thread (ty, tx) loads A(row, t * tile + tx) and "
           "B(t * tile + ty, col). Then check both barriers of the tile loop";
}

// @p v with 3 significant digits, e.g. "0.000101" or "0.0857".
std::string sig3(double v) {
    std::ostringstream s;
    s.precision(3);
    s << v;
    return s.str();
}

void append_detail(std::string& details, const std::string& line) {
    if (details.size() < 600) details += (details.empty() ? "" : "; ") + line;
}

// The shapes past the 32-bit limits, where an `int` row offset (row * K into A, row * N into C) wraps past
// 2^31 elements and an `unsigned` one past 2^32. Tall and thin: one matrix huge and the other dimension
// small, so that the product stays cheap (at most 0.21 TFLOP a shape: well under a second for a basic
// kernel). M is the largest size whose basic-tier grid, ceil(M / 16) blocks down C, fits gridDim.y's
// limit of 65535; odd, so that the last tile down C is partial for any tile height. The huge dimension is
// either the smallest odd size that carries its matrix past 2^31 elements (no vector path applies: every
// load or store of that matrix is scalar) or the smallest multiple of 8 (the widest of kResidueWidths'
// vectors) that carries it past 2^32 (every vector path applies); the small one has the same parity. So
// A's row offsets (what the kernel reads) and C's (what it writes) each cross 2^31 on a scalar path and
// 2^32 on a vector one.
constexpr int kHugeM = 65535 * 16 - 1;  // 1,048,559
constexpr int kPast2To31 = 2049;        // M * 2049 = 2,148,497,391 elements
constexpr int kPast2To32 = 4104;        // M * 4104 = 4,303,286,136 elements
static_assert(std::size_t(kHugeM) * kPast2To31 > (std::size_t(1) << 31) &&
                  std::size_t(kHugeM) * (kPast2To31 - 2) <= (std::size_t(1) << 31) && kPast2To31 % 2 == 1,
              "the smallest odd size past 2^31 elements");
static_assert(std::size_t(kHugeM) * kPast2To32 > (std::size_t(1) << 32) &&
                  std::size_t(kHugeM) * (kPast2To32 - 8) <= (std::size_t(1) << 32) && kPast2To32 % 8 == 0,
              "the smallest multiple of 8 past 2^32 elements");
static_assert(64 * kPast2To32 < (1 << 24), "every partial sum of integers in [-8, 8] exact in FP32");
const std::vector<Shape> kHugeShapes = {{kHugeM, 17, kPast2To31},   // A past 2^31, scalar
                                        {kHugeM, 24, kPast2To32},   // A past 2^32, vectors
                                        {kHugeM, kPast2To31, 17},   // C past 2^31, scalar
                                        {kHugeM, kPast2To32, 24}};  // C past 2^32, vectors

// "M=1048559 N=17 K=2049 (A: 2148497391 elements, past 2^31)": the matrix past a limit, and which.
std::string huge_shape_str(const Shape& s) {
    const bool a = s.a_size() > s.c_size();
    const std::size_t n = a ? s.a_size() : s.c_size();
    return s.str() + " (" + (a ? "A: " : "C: ") + std::to_string(n) + " elements, past 2^" +
           (n > (std::size_t(1) << 32) ? "32" : "31") + ")";
}

// An integer-valued float as it reads ("-123"), NaN as "nan".
std::string show(float v) {
    std::ostringstream s;
    s.precision(9);
    s << v;
    return s.str();
}

// The exact check at kHugeShapes, each where the GPU had its matrices free when grading started (decided
// before any of the lab's code ran; "not run on this GPU" otherwise). Integers in [-8, 8] as at the small
// sizes, so cublasSgemm's FP32 product is exact too. It is computed after the call (A and B must come back
// unchanged), a band of kBandRows rows of C at a time, each band far below 2^31 elements, and compared on
// the GPU: nothing but counts and the first mismatch goes to the host.
void check_huge_shapes() {
    constexpr int kBandRows = 32768;  // at most 134 million elements of the reference at once
    // With the GPU alone: the shapes were sized by its free memory, which must be free for them now too.
    const grading::GpuAlone alone;
    lab03::baseline::CublasSgemm cublas;
    for (const Shape& s : kHugeShapes) {
        const std::size_t band = std::size_t(kBandRows) * s.N;
        const std::size_t needs = (s.a_size() + s.b_size() + 2 * course::kInputTail + s.c_size() + band) * sizeof(float) +
                                  (std::size_t(1) << 30);  // with 1 GiB to spare
        const std::string label = huge_shape_str(s), what = "tiled_matmul(" + label + ")";
        if (!grading::run_if_it_fitted("the shape " + label, needs)) continue;
        try {
            course::DeviceBuffer<float> A(s.a_size() + course::kInputTail), B(s.b_size() + course::kInputTail);
            course::DeviceBuffer<float> C(s.c_size()), reference(band);
            course::poison_tail(A, s.a_size());
            course::poison_tail(B, s.b_size());
            course::fill_integers_device(A.data(), s.a_size(), grading::seed_for("lab03-huge-A", std::uint64_t(s.K)), -8, 8);
            course::fill_integers_device(B.data(), s.b_size(), grading::seed_for("lab03-huge-B", std::uint64_t(s.K)), -8, 8);
            C.fill_bytes(course::kPoisonByte);  // an element never written reads back as NaN
            const std::uint64_t print_a = grading::fingerprint_on_device(A.data(), A.bytes());
            const std::uint64_t print_b = grading::fingerprint_on_device(B.data(), B.bytes());
            if (!grading::run_student_past_2_31([&] { lab03::tiled_matmul(A.data(), B.data(), C.data(), s.M, s.N, s.K); }, what))
                return;
            if (grading::fingerprint_on_device(A.data(), A.bytes()) != print_a ||
                grading::fingerprint_on_device(B.data(), B.bytes()) != print_b) {
                grading::fail(Failure::WrongResult,
                              what + " changed A or B, which are read-only: a store of C landed outside C",
                              grading::kHugeIndexHint);
                return;
            }
            unsigned long long mismatches = 0;
            std::size_t first = 0;
            float got = 0.0f, expected = 0.0f;
            for (int row0 = 0; row0 < s.M; row0 += kBandRows) {
                const int rows = std::min(kBandRows, s.M - row0);
                const std::size_t c_offset = std::size_t(row0) * s.N;
                cublas(A.data() + std::size_t(row0) * s.K, B.data(), reference.data(), rows, s.N, s.K);
                const auto c = grading::compare_on_device(C.data() + c_offset, reference.data(), std::size_t(rows) * s.N, 0.0f);
                if (c.ok()) continue;
                if (mismatches == 0) {
                    first = c_offset + c.first;
                    got = c.got;
                    expected = c.expected;
                }
                mismatches += c.mismatches;
            }
            if (mismatches > 0) {
                grading::fail(Failure::WrongResult,
                              what + ": " + std::to_string(mismatches) + " of " + std::to_string(s.c_size()) +
                                  " elements of C differ from the exact product; first: C[" +
                                  std::to_string(first / std::size_t(s.N)) + "][" + std::to_string(first % std::size_t(s.N)) +
                                  "] = " + show(got) + " (expected " + show(expected) + ")",
                              grading::kHugeIndexHint);
                return;
            }
        } catch (const course::CudaError& e) {
            if (e.code() != cudaErrorMemoryAllocation) throw;
            grading::fail_missing_memory("the matrices of " + s.str());
            return;
        }
    }
}

}  // namespace

TEST_CASE("exact product of integer-valued matrices at edge and odd sizes" * doctest::test_suite("measured")) {
    // Entries are integers in [-8, 8], so every product and every partial sum is an integer of
    // magnitude at most 64 K < 2^24, which a float represents exactly. Whatever order the kernel sums
    // in, C must equal the float64 product exactly; any difference is a lost, doubled, misplaced or
    // raced term. Each size runs twice: a race shows up as a result that changes between runs.
    // Then the residue shapes, before the last: M, N and K up to 190, 223 and 254; and the group shapes
    // (kGroupShapes).
    // With the instructor's secret, two hidden shapes join them (new in every run).
    // Last, once every shape is right, the four shapes past 2^31 and 2^32 elements (kHugeShapes), once each.
    std::vector<Shape> shapes = kEdgeShapes;
    const std::vector<Shape> residues = residue_shapes({{{0, 1, 2}, {0, 3, 1, 2}, {0, 1, 3}}});
    shapes.insert(shapes.end() - 1, residues.begin(), residues.end());
    shapes.insert(shapes.end() - 1, kGroupShapes.begin(), kGroupShapes.end());
    const auto hidden = grading::hidden_sizes("lab03-exact", 6, 1, 600);
    for (std::size_t i = 0; i + 2 < hidden.size(); i += 3)
        shapes.insert(shapes.end() - 1, Shape{int(hidden[i]), int(hidden[i + 1]), int(hidden[i + 2])});
    std::vector<ShapeOutcome> outcomes;
    std::string details;
    for (const Shape& s : shapes) {
        REQUIRE_MESSAGE(64.0 * s.K < 16777216.0, "grader input too large for an exact float product");
        const Problem p = make_problem(s, "lab03-integers", true);
        const std::vector<double> exact = cpu_product(p);
        const auto got = student_product(p);
        if (!got) return;
        course::Comparison cmp = course::compare(got->data(), exact.data(), exact.size(), course::Tolerance::exact());
        cmp.row_width = std::size_t(s.N);
        if (cmp.ok()) {
            const auto again = student_product(p);
            if (!again) return;
            if (*again != *got) {
                grading::fail(Failure::WrongResult,
                              s.str() + ": two runs on the same input gave different results, " +
                                  course::compare(again->data(), exact.data(), exact.size(), course::Tolerance::exact())
                                      .summary("C"),
                              "the result changes between runs on the same input: a race. Is there a __syncthreads() "
                              "after loading a tile (before anyone reads it) and another after using it (before the "
                              "next iteration overwrites it)?");
                return;
            }
        }
        outcomes.push_back({s, cmp.ok(), cmp.unwritten == cmp.mismatches});
        if (!cmp.ok()) append_detail(details, s.str() + ": " + cmp.summary("C"));
    }
    if (!details.empty()) {
        grading::fail(Failure::WrongResult, details, shape_pattern_hint(outcomes));
        return;
    }
    check_huge_shapes();
}

TEST_CASE("product of random floats within a rounding bound that grows with K") {
    // Uniform floats in [-1, 1). Small sizes against float64 on the CPU, large ones against
    // cublasSgemm in pedantic FP32; the tolerance is rounding_bound() above.
    std::string details;
    bool small_wrong = false, large_wrong = false, only_slightly = true, unwritten = false;
    auto judge = [&](const Problem& p, const std::vector<float>& got, const auto& reference, double tol,
                     const char* against) {
        course::Comparison cmp =
            course::compare(got.data(), reference.data(), reference.size(), course::Tolerance{tol, 0.0});
        cmp.row_width = std::size_t(p.shape.N);
        if (cmp.ok()) return true;
        unwritten |= cmp.unwritten > 0;
        // Errors only a little above the bound (and no NaN) suggest reduced precision, not a bug.
        only_slightly &= cmp.unwritten == 0 && cmp.max_abs_error > 0.0 && cmp.max_abs_error < 100.0 * tol;
        append_detail(details,
                      p.shape.str() + " against " + against + ", tolerance " + sig3(tol) + ": " + cmp.summary("C"));
        return false;
    };
    for (const Shape& s : kCpuReferenceShapes) {
        const Problem p = make_problem(s, "lab03-floats", false);
        const auto got = student_product(p);
        if (!got) return;
        small_wrong |= !judge(p, *got, cpu_product(p), rounding_bound(p, false), "float64");
    }
    lab03::baseline::CublasSgemm cublas;
    for (const Shape& s : kCublasReferenceShapes) {
        const Problem p = make_problem(s, "lab03-floats", false);
        const auto got = student_product(p);
        if (!got) return;
        course::DeviceBuffer<float> reference(s.c_size());
        cublas(p.A.data(), p.B.data(), reference.data(), s.M, s.N, s.K);
        large_wrong |= !judge(p, *got, reference.download(), rounding_bound(p, true), "cublasSgemm");
    }
    if (details.empty()) return;
    std::string hint;
    if (unwritten)
        hint = "elements of C were never written (they still hold the grader's NaN poison): does the grid cover all "
               "of C, and does every thread whose (row, col) is inside C store its result?";
    else if (only_slightly)
        hint = "every error is small, just above the FP32 rounding bound: is part of the product computed in reduced "
               "precision (TF32 tensor cores, half)? The lab asks for FP32 multiply-adds throughout";
    else if (large_wrong && !small_wrong)
        hint = "right at the small sizes, wrong at the large ones, where many blocks run at once and the tile loop "
               "turns many times: a race. The second __syncthreads() of the tile loop keeps fast threads from "
               "overwriting a tile that slower ones are still reading";
    else
        hint = "compare the first mismatching [row][col] with your indexing, and see the exact check's hint";
    grading::fail(Failure::WrongResult, details, hint);
}

namespace {
// The technique check's call: tiled_matmul at 512 x 384 x 256, on random A and B, into a guarded C.
constexpr Shape kTechniqueShape{512, 384, 256};
void technique_call(const std::function<void(const Problem&, float*)>& run) {
    const Problem p = make_problem(kTechniqueShape, "lab03-technique", false);
    course::GuardedBuffer<float> C(kTechniqueShape.c_size());
    run(p, C.data());
}
}  // namespace

TEST_CASE("tiled_matmul_kernel stages tiles in shared memory") {
    // Judged on what really runs: the kernels tiled_matmul launches, traced, must be the lab's own, and
    // those with shared memory must do most of the work.
    if (const auto attr = grading::isolation::graded_attributes(lab03::graded_kernel()))
        grading::note("tiled_matmul_kernel: " + std::to_string(attr->registers) + " registers a thread, " +
                      std::to_string(attr->local_bytes) + " bytes of local memory (spills) a thread");
    technique_call([](const Problem& p, float* C) {
        const Shape& s = kTechniqueShape;
        grading::check_shared_memory_technique(
            "03", [&] { lab03::tiled_matmul(p.A.data(), p.B.data(), C, s.M, s.N, s.K); }, "tiled_matmul(" + s.str() + ")",
            lab03::graded_kernel(),
            "the lab is about reusing each element of A and B from shared memory: declare the tiles, e.g. "
            "`__shared__ float As[kTile][kTile], Bs[kTile][kTile];`, load them cooperatively and compute from them");
    });
}

namespace {
// Shared set-up of the two speed checks: 4096^3 problems in two slots, refilled with fresh A and B for
// every call of yours and multiplied by cuBLAS first, the contenders, and a correctness gate. Every timed
// call of yours is checked (speed.hpp): its C against cuBLAS's, exactly, and A and B unchanged.
//
// The values make every call an exact probe that tells FP32 from TF32: A holds integers in
// [-4095, 4095] (most need 12 significant bits, and TF32 keeps 11), B holds -1, 0 and 1. Every partial
// sum is an integer below 4096 * 4095 < 2^24, which FP32 holds exactly in any order of summation, so
// an FP32 kernel matches cuBLAS's FP32 result exactly, and a TF32 one (which rounds A) does not.
struct SpeedBench {
    // The technique in the timed calls (speed.hpp, timed_counters.hpp): the tiles' values reach the FMAs
    // from shared memory, so most memory instructions are shared loads.
    // The tensor cores are not judged here: sm__pipe_tensor_cycles_active_realtime counted 6.1% of the busy
    // cycles for a 16 x 16 tile kernel with no tensor instruction on an H100 (the reference 0.004%), so it
    // does not tell the two apart. The audit refuses the tensor cores' instructions instead (rubric.json
    // "refused_instructions"), and Nsight Compute counts them in the profiled calls.
    static grading::TimedTechnique timed_technique() {
        return grading::staged_through_shared(
            kTimedSharedLoads, 0.0,
            "in every call, timed or not, stage tiles of A and B in __shared__ arrays and compute from them in FP32, "
            "not from global memory or L1 alone, and not on the tensor cores",
            0.0, kTimedStagedShare * kStagedWords / 32, "staging A and B in tiles of at most 256 x 256 outputs a block");
    }
    static constexpr Shape kShape{kBenchSize, kBenchSize, kBenchSize};
    // The words of A and B stored into shared memory in a call, at the least (kLargestBlockTile).
    static constexpr double kStagedWords = 2.0 * kBenchSize * kBenchSize * double(kBenchSize) / kLargestBlockTile;
    // A, B, C and the reference a slot; 4 slots: a call takes milliseconds, so the boundary's cost is
    // small beside a batch of 4, and slow kernels keep the bench short.
    static int slot_count() { return grading::bench_slots(4 * kShape.c_size() * sizeof(float), 4); }
    std::vector<Problem> problems;
    std::vector<course::DeviceBuffer<float>> references;  // each slot's product, by cuBLAS
    std::vector<std::array<std::uint64_t, 2>> prints;     // fingerprints of each problem's A and B
    std::vector<course::DeviceBuffer<float>> Cs;          // your C a slot
    course::DeviceBuffer<float> peer_C{kShape.c_size()};  // the baseline's and the peer's C
    lab03::baseline::CublasSgemm cublas;
    int current = 0;                         // the problem of the student's next call (in this process)
    bool correct = false;

    explicit SpeedBench(const grading::BenchStart&) {
        for (int i = 0; i < slot_count(); ++i) {
            problems.push_back(make_problem(kShape, "lab03-bench-" + std::to_string(i), true));
            references.emplace_back(kShape.c_size());
            prints.push_back({});
            Cs.emplace_back(kShape.c_size());
            refresh(i, -1 - i);
        }
        const auto got = student_product(problems[0]);
        if (!got) return;
        const std::vector<float> reference = references[0].download();
        course::Comparison cmp =
            course::compare(got->data(), reference.data(), reference.size(), course::Tolerance::exact());
        cmp.row_width = std::size_t(kShape.N);
        correct = cmp.ok();
        if (!correct)
            grading::fail(Failure::WrongResult,
                          "at " + kShape.str() + " the product of integer matrices differs from cublasSgemm's, which is "
                          "exact in FP32: " + cmp.summary("C"),
                          "is the product computed in FP32 throughout? TF32 (tensor cores) rounds A's 12-bit values");
    }
    // Fresh A and B for call @p call in slot @p slot, and their product by cuBLAS.
    void refresh(int slot, int call) {
        const auto k = static_cast<std::size_t>(slot);
        Problem& p = problems[k];
        course::fill_integers_device(p.A.data(), kShape.a_size(), grading::seed_for("lab03-bench-A", call), -4095, 4095);
        course::fill_integers_device(p.B.data(), kShape.b_size(), grading::seed_for("lab03-bench-B", call), -1, 1);
        cublas(p.A.data(), p.B.data(), references[k].data(), kShape.M, kShape.N, kShape.K);
        prints[k][0] = grading::fingerprint_on_device(p.A.data(), p.A.bytes());
        prints[k][1] = grading::fingerprint_on_device(p.B.data(), p.B.bytes());
    }
    std::string verify(int i) {
        const auto k = static_cast<std::size_t>(i);
        const auto c = grading::compare_on_device(Cs[k].data(), references[k].data(), kShape.c_size(), 0.0f);
        if (!c.ok()) return "C differs from cublasSgemm's exact FP32 result: " + c.summary("C", kShape.c_size());
        const Problem& p = problems[k];
        if (grading::fingerprint_on_device(p.A.data(), p.A.bytes()) != prints[k][0] ||
            grading::fingerprint_on_device(p.B.data(), p.B.bytes()) != prints[k][1])
            return "the call changed A or B, which are read-only";
        return "";
    }
    std::vector<grading::Timings> measure(const std::vector<grading::Criterion>& criteria) {
        const int n = kBenchSize;
        const grading::VerifiedCalls calls{slot_count(),
                                           [&](int slot, int call) {
                                               refresh(slot, call);
                                               current = slot;
                                               Cs[static_cast<std::size_t>(slot)].fill_bytes(course::kPoisonByte);
                                           },
                                           [&](int slot) { return verify(slot); }};
        const auto A = [&](int s) { return problems[static_cast<std::size_t>(s)].A.data(); };
        const auto B = [&](int s) { return problems[static_cast<std::size_t>(s)].B.data(); };
        const auto C = [&](int s) { return Cs[static_cast<std::size_t>(s)].data(); };
        if (grading::isolation::enabled()) {
            // All three across the same boundary, each multiplying the slot's problem.
            using grading::isolation::Host;
            using grading::isolation::forward;
            const std::size_t bytes = kShape.c_size() * sizeof(float);
            const grading::Contenders across = {
                {[&](int s) { lab03::tiled_matmul(A(s), B(s), C(s), n, n, n); }, Host::Student,
                 [&](int s) -> const void* { return C(s); }, bytes},
                {[&](int s) { forward(Host::Peers, "naive_matmul", A(s), B(s), peer_C.data(), n, n, n); }, Host::Peers,
                 [&](int) -> const void* { return peer_C.data(); }, bytes},
                {[&](int s) { forward(Host::Peers, "cublas_sgemm", A(s), B(s), peer_C.data(), n, n, n); }, Host::Peers,
                 [&](int) -> const void* { return peer_C.data(); }, bytes, true}};
            return grading::measure_against(across, criteria, calls);
        }
        return grading::measure_against(
            [&] { lab03::tiled_matmul(A(current), B(current), C(current), n, n, n); },
            [&] { lab03::baseline::naive_matmul(A(0), B(0), peer_C.data(), n, n, n); },
            [&] { cublas(A(0), B(0), peer_C.data(), n, n, n); }, criteria, calls);
    }
    static std::string figures(const grading::Timings& t) {
        const double flops = 2.0 * kBenchSize * double(kBenchSize) * kBenchSize;
        const double tflops = course::gflop_per_s(flops, t.student_ms) / 1e3;
        return "4096^3: yours " + grading::fixed(tflops, 1) + " TFLOP/s (" +
               grading::fixed(100.0 * t.peer_ms / t.student_ms, 0) + "% of cuBLAS), naive " +
               grading::fixed(course::gflop_per_s(flops, t.baseline_ms) / 1e3, 1) + " TFLOP/s, cublasSgemm FP32 " +
               grading::fixed(course::gflop_per_s(flops, t.peer_ms) / 1e3, 1) + " TFLOP/s (medians, " +
               std::to_string(t.rounds) + " round(s))";
    }
};

// The two speed checks' one bench, set up and measured by whichever of them runs first.
grading::SharedSpeed& speed() {
    static grading::SharedSpeed shared(grading::measure_bench<SpeedBench>(
        {{grading::speedup_over_baseline, kMinSpeedupOverNaive}, {grading::fraction_of_peer, kMinFractionOfCublas}}));
    return shared;
}
}  // namespace

TEST_CASE("speed: faster than the naive one-thread-per-output kernel" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(0);
    if (!t) return;
    grading::judge_speed(grading::speedup_over_baseline(*t), kMinSpeedupOverNaive, "x",
                         "speed-up over the naive kernel", SpeedBench::figures(*t),
                         "tiling alone gains little over the naive kernel, whose re-reads L1 and L2 mostly serve: "
                         "do the register-blocking tier, where each thread computes an 8 x 8 block of C from 8 + 8 "
                         "values read from shared memory per step along K");
}

TEST_CASE("speed: close to cublasSgemm in FP32 (no TF32)" * doctest::test_suite("measured")) {
    const grading::Timings* t = speed().timings(1);
    if (!t) return;
    grading::judge_speed(grading::fraction_of_peer(*t), kMinFractionOfCublas, "x cuBLAS",
                         "speed relative to cublasSgemm",
                         SpeedBench::figures(*t),
                         "keep the FMA units busy: 128 x 128 tiles of C a block, an 8 x 8 micro-tile a thread, A "
                         "transposed in shared memory and read as float4, two shared-memory stages (one loading while "
                         "the other is used), and no register spills (compile with -Xptxas -v)");
}

// The runner's memory and race check runs this test case alone, under compute-sanitizer (memcheck,
// racecheck, synccheck; see the rubric's "sanitizer" item): the lab's code at small sizes, on buffers of
// exactly the data's size, so that a read even one element past the end falls outside every allocation.
// Graded runs never include it; its results are judged by the sanitizer, not here.
// Its shapes: four edge shapes and the 64 residue shapes with M and N below 128 and K at most 64: about
// 550,000 elements of A, B and C in all.
TEST_CASE("sanitizer workload" * doctest::test_suite("sanitizer")) {
    std::vector<Shape> shapes = {{1, 1, 1}, {33, 65, 47}, {64, 64, 64}, {130, 67, 129}};
    const std::vector<Shape> residues = residue_shapes({{{0, 1}, {1, 0}, {0}}});
    shapes.insert(shapes.end(), residues.begin(), residues.end());
    for (const Shape& s : shapes) {
        const int M = s.M, N = s.N, K = s.K;
        const course::DeviceBuffer<float> A(course::uniform_floats(std::size_t(M) * K, grading::seed_for("lab03-sanitizer-a", M)));
        const course::DeviceBuffer<float> B(course::uniform_floats(std::size_t(K) * N, grading::seed_for("lab03-sanitizer-b", N)));
        course::DeviceBuffer<float> C(std::size_t(M) * N);
        const std::string what = "tiled_matmul(M = " + std::to_string(M) + ", N = " + std::to_string(N) + ", K = " +
                                 std::to_string(K) + ")";
        if (!grading::run_student([&] { lab03::tiled_matmul(A.data(), B.data(), C.data(), M, N, K); }, what)) return;
    }
}

// The runner's Nsight Compute checks run this test case alone (the rubric's "shared_memory_use" item),
// after the grader's probe kernel. It makes the technique check's call, then what the speed checks make
// first in a graded run: the correctness gate's 4096^3 product in a new process (an exact probe: any
// lower-precision path is wrong there) and one batch of calls, one an input slot, each verified. Every
// launch is judged by the rubric's rules: what it loads from global memory is staged in shared memory,
// its multiply-adds take their operands from there, and no tensor core runs. Graded runs never include it.
TEST_CASE("profile workload" * doctest::test_suite("profile")) {
    const Shape& s = kTechniqueShape;
    technique_call([&](const Problem& p, float* C) {
        grading::run_student([&] { lab03::tiled_matmul(p.A.data(), p.B.data(), C, s.M, s.N, s.K); },
                             "tiled_matmul(" + s.str() + ")");
    });
    if (grading::current_check_failed()) return;
    grading::profile_call_done("tiled_matmul(" + s.str() + "), the technique check's call");
    grading::profile_bench_calls<SpeedBench>("tiled_matmul(" + SpeedBench::kShape.str() + "), the speed checks' first calls");
}
