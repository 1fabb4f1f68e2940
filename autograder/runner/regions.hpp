/// @file regions.hpp
/// @brief Student regions: `// BEGIN STUDENT REGION <name>` ... `// END STUDENT REGION`.
///
/// A graded file is never the student's file as written: it is the course's skeleton (the starter)
/// with the insides of its regions taken from the submission (assemble()). Edits outside the regions
/// then have no effect and are reported, and each region body is checked first (check_region_body()):
/// it may hold only code for its place (statements in a function, declarations in a namespace), with
/// no preprocessor line, and it cannot close the function or namespace that holds it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief A source file with the insides of its student regions removed.
struct Skeleton {
    std::vector<std::string> lines;     ///< lines outside the regions; each region is one line "<region NAME>"
    std::vector<int> line_numbers;      ///< 1-based line number in the original file of each entry
    std::vector<std::string> regions;   ///< region names in order
    std::vector<std::string> bodies;    ///< each region's inside, lines joined with '\n' (no trailing newline)
    std::vector<int> body_first_line;   ///< 1-based line number of each region's first inside line
    std::string error;                  ///< non-empty when the markers are malformed
};

/// @brief Splits @p text into the fixed part and its regions.
Skeleton skeleton_of(const std::string& text);

/// @brief "" when @p starter and @p solution agree outside their regions (same regions, same order,
/// same lines; trailing whitespace ignored), else a description of the first difference.
std::string compare_skeletons(const std::string& starter, const std::string& solution,
                              const std::string& starter_name = "starter", const std::string& solution_name = "solution");

/// @brief Where a region sits in its file, which decides what it may hold.
enum class RegionScope {
    Function,   ///< inside a function body: statements
    Namespace,  ///< at namespace scope: declarations (constants, __device__ helpers)
};

/// @brief "" when @p body may stand in a region of @p scope, else why not: the first problem, with its line
/// ("line N: ..." of the file when @p first_line, the file's line of the region's first line, is given;
/// else "line N of the region: ..."). Refused: a preprocessor line (or `_Pragma`), a
/// digraph, a line that ends in a backslash, a brace, bracket or parenthesis that closes one opened
/// outside the region (so a region cannot close its function or namespace), one left open at the end,
/// an unterminated comment, string or character literal; `asm` and attributes (`__attribute__`,
/// `[[gnu::...]]`; the standard's plain ones such as `[[likely]]` are fine), which could name any symbol,
/// run code before main or hold any instruction; and at namespace scope `extern "C"`, which would name
/// symbols outside the lab's namespace.
std::string check_region_body(const std::string& body, RegionScope scope, int first_line = 0);

/// @brief The outcome of assemble().
struct Assembly {
    std::string source;               ///< the graded file: the skeleton with the submission's region bodies
    std::string refusal;              ///< non-empty when the submission cannot be graded (a region breaks the rules)
    std::vector<std::string> notes;   ///< things reported but not refused (edits outside the regions, ...)
};

/// @brief A source text and the path it is named by in messages and `#line` directives.
struct SourceText {
    std::string text;  ///< the file's contents
    std::string name;  ///< its path
};

/// @brief Rebuilds a submission from the course's @p skeleton: every line outside the regions comes
/// from the skeleton, every region body from @p submission. Regions the submission lacks are taken from
/// @p fill when given (the known-wrong variants hold only the regions that carry their bug), else they
/// are refused. `#line` directives make compiler messages point at the submission's own lines.
/// Throws std::runtime_error when the skeleton itself is malformed (a course bug, not the student's).
Assembly assemble(const SourceText& skeleton, const SourceText& submission, const SourceText* fill = nullptr);

}  // namespace grading
