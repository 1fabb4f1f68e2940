/// @file reports.hpp
/// @brief The three forms of a grade: a terminal table, Gradescope's results.json, JUnit XML.
#pragma once

#include "results.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace grading {

/// @brief Facts printed with every grade.
struct RunInfo {
    std::string gpu;        ///< DeviceInfo::fingerprint()
    unsigned long long seed = 0;  ///< the run's seed
    double build_seconds = 0;     ///< building the labs
    double grade_seconds = 0;     ///< running the checks
    bool secret = false;          ///< graded with the instructor's secret (the seed alone does not rebuild the inputs)
};

/// @brief The table students read: one row per check, then each failure's message and hint.
std::string summary_table(const std::vector<LabResult>& labs, const RunInfo& info);

/// @brief Seconds lab @p lab's grading @p r had the GPU alone: what its measured checks' program counted
/// (LabResult::alone_seconds; all of their time where the runner held the lock alone for them), and
/// Nsight Compute's run.
double gpu_alone_seconds(const LabResult& r, const RubricLab& lab);

/// @brief Where a grading's time went, lab by lab (@p labs[i] is the rubric of @p results[i]): building,
/// the exact checks (the lab program's exact pass), the measured checks (RubricCheck::measured: timed, or
/// sized by the GPU's memory; they need the GPU to themselves), the memory and race check (its runs summed; they overlap on
/// the cores) and Nsight Compute; then the GPU seconds that need the GPU to themselves against those that
/// could share it. @p gpu_lock_taken: whether the grader took its GPU lock (locks.hpp's take_gpu): then a
/// last line says how long it held it alone and how long shared.
std::string time_breakdown(const std::vector<LabResult>& results, const std::vector<const RubricLab*>& labs,
                           bool gpu_lock_taken);

/// @brief Gradescope's results.json: score, execution_time, output and one test per check.
nlohmann::json gradescope_json(const std::vector<LabResult>& labs, const RunInfo& info);

/// @brief JUnit XML: one testsuite per lab, one testcase per check, a <failure> per failed check
/// with its class as the type.
std::string junit_xml(const std::vector<LabResult>& labs, const RunInfo& info);

/// @brief One student's row of a gradebook (also kept as summary.json next to their reports):
/// `{"student", "status", "points", "max_points", "gpu", "seed", "labs": [{"id", "points", "max_points",
/// "class", "checks": [{"name", "points", "max_points", "class"}]}]}`. A lab's "class" is its headline
/// failure class, "pass", or "compiles" when @p graded is false (built without a GPU, nothing run).
nlohmann::json student_summary(const std::string& student, const std::vector<LabResult>& labs, const RunInfo& info,
                               bool graded);

/// @brief The gradebook as CSV: a header, then one row per summary: student, status, points, max_points,
/// and for each lab of the rubric labNN_points, labNN_max, labNN_class (empty when the lab was not graded).
std::string gradebook_csv(const std::vector<nlohmann::json>& summaries, const Rubric& rubric);

/// @brief @p v with @p digits digits after the point, e.g. num(2.456, 1) == "2.5": the runner's one
/// formatter of figures (seconds, ratios) in reports and messages.
std::string num(double v, int digits);

/// @brief Points as reports and tables write them: whole numbers as such ("3"), else one decimal ("2.5").
std::string points_str(double p);

/// @brief Escapes text for XML character data and attribute values.
std::string xml_escape(const std::string& s);

}  // namespace grading
