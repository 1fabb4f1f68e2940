/// @file grading.hpp
/// @brief What a lab's checks (doctest test cases) use to report classified results to the runner.
///
/// Each TEST_CASE in `autograder/labs/NN-name/checks.cpp` is one graded item of the
/// rubric. Inside it, student code runs through run_student(), which turns CUDA
/// errors into failure classes; failures are reported with fail(), which also
/// fails the doctest check; speed checks report their figure with measured().
/// Checks that need no GPU (analytic models, CPU references) go in `doctest::test_suite("cpu")`:
/// CI runs them against the solution with `--cpu-only`, and every graded run runs them too.
/// A doctest listener streams one JSON line per check to the file given by
/// `--report`, so the runner keeps what was learnt even if the process dies.
#pragma once

#include "failure.hpp"

#include "device_info.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace grading {

/// @brief The seed of this run (from `--seed`, else COURSE_SEED, else fresh entropy); printed at start.
std::uint64_t run_seed();

/// @brief Where a check writes a file for the student to look at (a plot, a CSV): @p name inside the
/// folder given by `--artifacts` (the runner's build/grading), never the lab's scratch working folder.
std::string artifact_path(const std::string& name);

/// @brief A seed for one use within this run: the same (tag, salt) always gives the same seed.
std::uint64_t seed_for(const std::string& tag, std::uint64_t salt = 0);

/// @brief The GPU being graded on (not available in `--cpu-only` runs).
const course::DeviceInfo& device();

/// @brief True when the instructor grades with a secret (`grade --secret-file`): every seed_for() then
/// depends on it as well as on the printed seed, so the printed seed alone cannot rebuild the inputs.
bool has_secret();

/// @brief Sizes the instructor's secret decides: @p count values in [@p lo, @p hi], drawn from the secret,
/// the run's seed and @p tag, so they are new in every run (a failure that names one tells nothing about
/// the next run's). Empty without a secret. Checks add them to the sizes their rubric names.
std::vector<std::int64_t> hidden_sizes(const std::string& tag, int count, std::int64_t lo, std::int64_t hi);

/// @brief @p sizes with the hidden sizes hidden_sizes(@p tag, @p count, @p lo, @p hi) inserted before the
/// last one (a check's last size is often the one it runs twice); @p sizes alone without a secret.
std::vector<std::size_t> with_hidden(std::vector<std::size_t> sizes, const std::string& tag, int count, std::size_t lo,
                                     std::size_t hi);

/// @brief @p sizes with @p count sizes in [@p lo, @p hi] drawn from the run's seed and @p tag inserted before
/// the last one: new in every run (the printed seed reproduces them), so a size-dependent bug that no
/// listed size reaches (a remainder of a block's chunk, say) is met sooner or later, and likely at once.
std::vector<std::size_t> with_random(std::vector<std::size_t> sizes, const std::string& tag, int count, std::size_t lo,
                                     std::size_t hi);

/// @brief Whether the GPU had @p bytes free when the program started, before any student code ran: the
/// inputs past 2^31 and 2^32 elements (huge_input.hpp), or a matrix past 2^31, run exactly then (the
/// report says "not run on this GPU" otherwise); memory the student's code takes later never skips them.
bool fitted_at_start(std::size_t bytes);

/// @brief While one lives, this program has the GPU to itself: where the runner handed it the GPU lock
/// (--gpu-lock, the measured checks' pass), held shared for the whole run, the lock is taken alone, and
/// other gradings' work waits; the launch hosts are stopped while the program waits for it. Used around
/// what is timed and what is sized by the GPU's free memory, and nothing else: a speed bench from its
/// allocations to its last verified call, the inputs past 2^31 elements, Lab 06's sweeps. Nested ones do
/// nothing more. Where the runner holds the lock itself (the exact pass, one pass a lab), nothing.
class GpuAlone {
public:
    GpuAlone();
    ~GpuAlone();
    GpuAlone(const GpuAlone&) = delete;
    GpuAlone& operator=(const GpuAlone&) = delete;
};

/// @brief True when `--quick` was given: speed checks use fewer repetitions (for smoke tests only).
bool quick();

/// @brief Records a failure of the current check with its class, a message and a hint, and fails
/// the doctest check. The first failure of a check is kept as its headline.
void fail(Failure cls, const std::string& message, const std::string& hint = {});

/// @brief Records the figure a check measured (e.g. a ratio to the library peer) and its threshold.
/// @param value the measured figure
/// @param threshold the value it is compared with
/// @param unit e.g. "x CUB" or "GB/s"
/// @param higher_is_better direction of the comparison
void measured(double value, double threshold, const std::string& unit, bool higher_is_better = true);

/// @brief Adds a line to the current check's output (shown in reports).
void note(const std::string& line);

/// @brief Hands a value to this lab's workload runs (the memory and race check, the bank-conflict
/// profile), which run later in their own processes: the runner reads it from the current check's
/// record and gives it back to each workload as `--workload-arg name=value`, where workload_arg()
/// returns it. Only what a graded run measured goes this way (e.g. the block shape the lab's launcher
/// used), so that a workload can do the same work with fewer blocks.
/// @param name lower-case letters, digits and '-', at most 32 characters
/// @param value printable, at most 120 characters
void hand_to_workloads(const std::string& name, const std::string& value);

/// @brief In a workload run: the value a graded run handed over as @p name (see hand_to_workloads());
/// nullopt when none was (a workload run alone, or with --sanitizer only).
std::optional<std::string> workload_arg(const std::string& name);

/// @brief In the profile workload (run under Nsight Compute): ends one call of the lab's code, named
/// @p what (e.g. "sum_reduce(n = 268435456), the benchmark's size"). Launches the grader's probe kernel,
/// which separates the calls in the profiler's report, and names the call in the workload's record, so
/// that the runner judges each kernel launch with the call that made it. @p facts: what the grader knows
/// the call must show (e.g. {"wavefronts", 4}: the shared-memory wavefronts a load of this stride takes),
/// for the rubric's rules that name them.
void profile_call_done(const std::string& what, const std::map<std::string, double>& facts = {});

/// @brief In a workload run: the tool that runs it ("memcheck", "racecheck", "synccheck", "ncu"), as the
/// runner's `--workload-tool` names it; empty when not named.
const std::string& workload_tool();

/// @brief Runs student code (a launcher call) and waits for the GPU. Returns false, with the
/// failure recorded, if it threw or a kernel failed. A crashed kernel (sticky error) ends the
/// process after the report is flushed, because the CUDA context can no longer be used.
/// @param call the student code to run, e.g. a lambda that calls the lab's launcher
/// @param what names the call in messages, e.g. "sum_reduce(n = 257)"
bool run_student(const std::function<void()>& call, const std::string& what);

/// @brief Runs @p call, code that calls the student's and checks for CUDA errors itself (the speed bench's
/// timed loop), and turns what escapes it into failures as run_student() does: a CUDA error into a launch
/// error (a lost context records a crash and ends the process), anything else thrown into a crash.
/// Returns false when something escaped.
/// @param call what to run
/// @param what names it in messages
bool run_guarded(const std::function<void()>& call, const std::string& what);

/// @brief True when the current check has recorded a failure.
bool current_check_failed();

/// @brief A check's headline failure: its class, message and hint as fail() recorded them.
struct RecordedFailure {
    Failure cls = Failure::None;  ///< the failure class
    std::string message;          ///< what went wrong
    std::string hint;             ///< what to try
};

/// @brief The current check's headline failure; empty while it has none.
std::optional<RecordedFailure> current_failure();

/// @brief @p v with @p digits digits after the point, e.g. fixed(0.8712, 2) == "0.87".
inline std::string fixed(double v, int digits = 2) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

/// @brief Declares, once per threshold, the value a check judges against, so that the rubric (each lab's
/// rubric.json "threshold", from which the handouts' tables are generated) can be compared with what
/// the program really uses: `labNN_<tree> --thresholds` prints them, and the rubric test compares.
struct ThresholdRegistration {
    /// @brief Registers @p value as the threshold of the check named @p check (its TEST_CASE name).
    ThresholdRegistration(const char* check, double value);
};

/// @brief Every registered (check, threshold) pair, in registration order.
const std::vector<std::pair<std::string, double>>& registered_thresholds();

/// @brief Exit status of a lab process whose CUDA context was lost (the runner marks the rest not run).
inline constexpr int kExitContextLost = 3;

}  // namespace grading

/// @brief Pastes two tokens (a helper of GRADING_CONCAT).
#define GRADING_CONCAT_(a, b) a##b
/// @brief Pastes two tokens after expanding them (GRADING_THRESHOLD names its object by the line).
#define GRADING_CONCAT(a, b) GRADING_CONCAT_(a, b)
/// @brief `GRADING_THRESHOLD("speed: ...", kMinFractionOfCub);` at namespace scope, after the constant.
#define GRADING_THRESHOLD(check, value) \
    static const ::grading::ThresholdRegistration GRADING_CONCAT(grading_threshold_, __LINE__)(check, value)
