/// @file regions.hpp
/// @brief Starter and solution must be the same file outside the student regions:
/// `// BEGIN STUDENT REGION <name>` ... `// END STUDENT REGION`.
#pragma once

#include <string>
#include <vector>

namespace grading {

/// @brief A source file with the insides of its student regions removed.
struct Skeleton {
    std::vector<std::string> lines;     ///< lines outside the regions; each region is one line "<region NAME>"
    std::vector<int> line_numbers;      ///< 1-based line number in the original file of each entry
    std::vector<std::string> regions;   ///< region names in order
    std::string error;                  ///< non-empty when the markers are malformed
};

/// @brief Splits @p text into the fixed part and its regions.
Skeleton skeleton_of(const std::string& text);

/// @brief "" when @p starter and @p solution agree outside their regions (same regions, same order,
/// same lines; trailing whitespace ignored), else a description of the first difference.
std::string compare_skeletons(const std::string& starter, const std::string& solution,
                              const std::string& starter_name = "starter", const std::string& solution_name = "solution");

}  // namespace grading
