/// @file gradebook.hpp
/// @brief The class's gradebook from the service's results, in the roster's format (grade --roster):
/// one row a student, with each lab's points, maximum and class from the student's latest graded
/// submission of that lab.
#pragma once

#include "store.hpp"
#include "submission.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace service {

/// @brief One lab of a stored grading: from results.json when the checks ran, else from the lines a
/// build-only grading prints ("Lab 01 (Sum reduction): compiles"). Null when the lab is not in it.
nlohmann::json lab_row(const GradedLab& g, const LabSource& lab);

/// @brief Each student's row, as grade --roster's summary.json: {"student", "status", "points",
/// "max_points", "labs": [{"id", "points", "max_points", "class"}]}; status "not graded" when nothing
/// of the student's is graded, "built" when a lab was only built (no GPU).
std::vector<nlohmann::json> gradebook_rows(const std::vector<std::string>& students, const std::vector<GradedLab>& graded,
                                           const std::vector<LabSource>& catalog);

}  // namespace service
