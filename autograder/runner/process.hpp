/// @file process.hpp
/// @brief Running a lab's program in its own process group with a time limit.
#pragma once

#include "results.hpp"

#include <string>
#include <vector>

namespace grading {

/// @brief Runs @p argv (argv[0] a path) with stdout and stderr appended to @p log_path, and kills
/// its whole process group when it runs longer than @p timeout_s seconds.
/// @param elapsed_s receives the wall time it took
/// @param working_dir the child's working directory ("" keeps the runner's)
ProcessOutcome run_with_timeout(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
                                double& elapsed_s, const std::string& working_dir = "");

/// @brief The first line of a build log that reads like a compiler error, trimmed; "" when none.
std::string first_error_line(const std::string& log);

}  // namespace grading
