/// @file bench.hpp
/// @brief The course benchmark (`bench`): times each lab's reference solution, its naive baseline and its
/// library peer interleaved, at the sizes the speed checks use, and reports them against a measured copy
/// roofline. Not a test: it grades nothing, it measures (docs/pages/bench.md).
///
/// Each lab's part (autograder/labs/NN-name/bench.cpp, found by the bench's CMakeLists.txt and registered
/// at start with Register) builds its cases one at a time (the inputs, the three contenders and how each
/// one's output is checked) and frees them before the next. time_case() times them with the course's timer
/// (course::time_interleaved: warm-ups, round robin, CUDA events between device-wide synchronisations,
/// medians) and checks every call's output, warm-ups included, outside the timed interval, so a wrong result
/// never reports a speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// @brief How the benchmark runs (the command line's options).
struct Options {
    int rounds = 15;          ///< timed runs of each contender (the medians are over these)
    int warmup = 2;           ///< untimed runs of each contender first
    std::uint64_t seed = 0;   ///< the run's seed: every input derives from it
};

/// @brief What a case's throughput counts.
enum class Bound {
    Memory,   ///< bytes moved: GB/s, compared with the copy roofline
    Compute,  ///< floating-point operations: TFLOP/s, no roofline
};

/// @brief One of a case's three contenders.
struct Contender {
    std::string role;                    ///< "reference", "naive" or "peer"
    std::string name;                    ///< what runs, e.g. "cub::DeviceReduce::Sum"
    std::function<void()> run;           ///< enqueues the work on the default stream (timed)
    std::function<void()> prepare;       ///< before every run, untimed (e.g. poisons the output); may be empty
    std::function<std::string()> check;  ///< after every run, device idle: "" when the output is right, else why not
};

/// @brief One benchmark of a lab: a size, what it counts, and its contenders (the peer among them).
struct Case {
    std::string lab;                     ///< "01" ... "05"
    std::string name;                    ///< e.g. "sum of 2^28 floats"
    Bound bound = Bound::Memory;         ///< what the throughput counts
    double work = 0.0;                   ///< bytes moved (Memory) or floating-point operations (Compute) per call
    std::vector<Contender> contenders;   ///< in the order they are timed; exactly one has role "peer"
};

/// @brief One contender's measurement (a line of the table, a row of the CSV, a bar of the chart).
struct Row {
    std::string lab;                ///< "01" ... "05", or "--" for the copy roofline
    std::string case_name;          ///< the case
    std::string role;               ///< "reference", "naive", "peer" or "roofline"
    std::string name;               ///< what ran
    Bound bound = Bound::Memory;    ///< what throughput counts
    bool ok = false;                ///< every call's output was right (otherwise no figures are reported)
    std::string problem;            ///< the first wrong output, when !ok
    int rounds = 0;                 ///< timed runs
    double median_ms = 0.0;         ///< median time of one call
    double min_ms = 0.0;            ///< fastest call
    double max_ms = 0.0;            ///< slowest call
    double throughput = 0.0;        ///< GB/s (Memory) or TFLOP/s (Compute)
    double ratio_to_peer = 0.0;     ///< peer time / this time (higher is faster; the peer is 1); 0 when unknown
    double of_roofline = -1.0;      ///< throughput / the copy roofline (Memory cases); < 0 when not applicable
};

/// @brief Times the contenders of @p c interleaved and checks every call; one Row a contender, in their order.
/// Ratios to the peer are filled in; fractions of the roofline are left to the caller.
std::vector<Row> time_case(const Case& c, const Options& options);

/// @brief The unit of a throughput: "GB/s" or "TFLOP/s".
const char* unit(Bound bound);

/// @brief "" when |got - expected| <= tolerance and got is finite, else a sentence naming both.
std::string check_scalar(const std::string& what, float got, float expected, double tolerance, const std::string& peer);

/// @brief "" when the device arrays hold the same @p n floats within @p atol, else a summary of the first mismatch.
std::string check_array(const std::string& what, const float* d_got, const float* d_expected, std::size_t n,
                        float atol, const std::string& against);

/// @brief A lab's benchmark, at the size its speed checks use (autograder/labs/NN-name/checks.cpp): builds
/// its cases, times them with time_case() and returns their rows. A reference output that cannot be
/// trusted (the naive baseline and the peer disagree) throws std::runtime_error before anything is timed.
using LabBench = std::vector<Row> (*)(const Options& options);

/// @brief The labs' benchmarks by lab id ("01"), in order: each lab's bench.cpp registers its own.
std::map<std::string, LabBench>& labs();

/// @brief Registers lab @p id's benchmark @p run in labs() when the program starts: a namespace-scope
/// `const bench::Register registered("NN", run);` in the lab's bench.cpp.
struct Register {
    Register(const char* id, LabBench run) { labs()[id] = run; }
};

/// @brief The copy roofline: cudaMemcpy device to device of @p bytes, read + write counted (role "roofline").
Row copy_roofline(std::size_t bytes, const Options& options);

/// @brief Writes the table to standard output.
void print_table(const std::vector<Row>& rows, const Row& roofline);

/// @brief The CSV header line (without the newline); docs/pages/bench.md explains each column.
const char* csv_header();

/// @brief Writes @p rows and the roofline as CSV to @p path (its folder is created). Throws on failure.
void write_csv(const std::string& path, const std::vector<Row>& rows, const Row& roofline, const std::string& gpu);

/// @brief Draws the bar chart (one panel a case: reference, naive, peer; the roofline as a dashed line in
/// memory-bound cases) as SVG into @p path (its folder is created). Throws on failure.
void write_svg(const std::string& path, const std::vector<Row>& rows, const Row& roofline, const std::string& title,
               const std::string& subtitle);

}  // namespace bench
