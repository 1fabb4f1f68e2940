/// @file sanitizer.hpp
/// @brief The runner's memory and race check: a lab's sanitizer workload (doctest test suite
/// "sanitizer": the lab's code at small sizes on exact-size buffers) run under compute-sanitizer's
/// memcheck, racecheck and synccheck, judged from the tool's own log and the grader's channel.
#pragma once

#include "results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief The exit status compute-sanitizer is asked to return when its tool reported an error.
inline constexpr int kSanitizerErrorExit = 86;

/// @brief The test case the lab program runs with `--sanitizer-workload`.
inline constexpr const char* kSanitizerWorkload = "sanitizer workload";

/// @brief What one tool's log says.
struct SanitizerFindings {
    bool summary = false;   ///< the log ends with the tool's summary (so the tool saw the program end)
    int errors = 0;         ///< errors counted in "ERROR SUMMARY"
    int warnings = 0;       ///< racecheck's hazards reported as warnings ("RACECHECK SUMMARY")
    std::vector<std::string> first;  ///< the first few reports, one line each, without the "=====" prefix
    /// @brief True when the tool reported anything (an error, or a racecheck warning).
    bool found() const { return errors > 0 || warnings > 0; }
};

/// @brief Reads a compute-sanitizer log (the file named by --log-file).
SanitizerFindings parse_sanitizer_log(const std::string& text);

/// @brief The command that runs @p program (argv, argv[0] a path) under @p sanitizer's @p tool, its log
/// going to @p log_file.
std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool,
                                           const std::string& log_file, const std::vector<std::string>& program);

/// @brief One tool's run of a lab's workload.
struct SanitizerRun {
    std::string tool;          ///< memcheck, racecheck, synccheck
    ProcessOutcome outcome;    ///< how compute-sanitizer (and so the program) ended
    std::string log_text;      ///< the tool's log
    std::string log_path;      ///< where it is kept, for the student
    std::string records;       ///< what the workload sent through the grader's channel
    double seconds = 0;        ///< wall time
};

/// @brief The sanitizer item's result from its runs, one per tool in the rubric's order (the first that
/// found something decides the class). Fails as MemoryError (memcheck) or RaceCondition (racecheck,
/// synccheck) when a tool reported anything; as the way the run ended when it timed out or crashed
/// without a report; as GraderIntegrity when the workload's records are not exactly one faithful start,
/// end and done under @p key, or the log has no summary.
CheckResult judge_sanitizer(const RubricSanitizer& item, const std::vector<SanitizerRun>& runs, const std::string& key,
                            double timeout_s);

/// @brief A runner item that passed (a clean memory and race check, a conflict-free profile) earns its
/// point only alongside working code: when another check of the lab failed with a class before
/// TechniqueNotUsed (a wrong result, a crash, an implausible measurement, ...), a passing @p item becomes
/// "not run" with no points (a starter that does nothing is trivially clean). @p finding says what the
/// tool saw ("compute-sanitizer found nothing"). What the tools found is kept either way.
void require_working_code(CheckResult& item, const std::vector<CheckResult>& other_checks,
                          const std::string& finding = "compute-sanitizer found nothing");

/// @brief The first of @p checks whose failure means the lab's code does not work (any class before
/// TechniqueNotUsed, as require_working_code() judges), or nullptr when there is none.
const CheckResult* first_broken_check(const std::vector<CheckResult>& checks);

/// @brief Makes @p item "not run" with no points because @p broken failed: "<finding>, but this item earns
/// its point only when the lab's results are right (...)". require_working_code() uses it, and so does a
/// runner item that is not even taken when the lab already failed.
void earns_nothing_without_working_code(CheckResult& item, const CheckResult& broken, const std::string& finding);

/// @brief "" when @p lines are exactly a workload's start, end and done under @p key, for the test case
/// @p workload; else what is wrong. @p end receives the end record.
std::string workload_records_problem(const std::vector<nlohmann::json>& lines, const std::string& key,
                                     const std::string& workload, nlohmann::json& end);

/// @brief A check result for a runner item, before it is judged: its name, points and visibility.
CheckResult runner_item(const std::string& name, double points, const std::string& visibility);

/// @brief Marks @p c failed with @p cls and @p message, and the class's generic hint.
void set_failure(CheckResult& c, Failure cls, const std::string& message);

/// @brief Runner item @p c (from runner_item()), not run: counted neither way (max_points 0), with @p why
/// in its message.
CheckResult runner_item_skipped(CheckResult c, const std::string& why);

/// @brief Runner item @p c when the lab did not build: failed with the build's class, like its other checks.
CheckResult runner_item_not_built(CheckResult c, const ProcessOutcome& build);

/// @brief The program to use: @p configured when it is an executable file, else the first @p name on
/// PATH; nullopt when there is none.
std::optional<std::string> find_tool(const std::string& configured, const std::string& name);

/// @brief The item, not run: counted neither way (max_points 0), with @p why in its message.
CheckResult sanitizer_skipped(const RubricSanitizer& item, const std::string& why);

/// @brief The item when the lab did not build: failed with the build's class, like its other checks.
CheckResult sanitizer_not_built(const RubricSanitizer& item, const ProcessOutcome& build);

/// @brief The compute-sanitizer to use: find_tool(@p configured, "compute-sanitizer").
inline std::optional<std::string> find_compute_sanitizer(const std::string& configured) {
    return find_tool(configured, "compute-sanitizer");
}

}  // namespace grading
