/// @file process.hpp
/// @brief Running a lab's program in its own process group with a time limit.
#pragma once

#include "results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief The file descriptor on which a lab's program finds the grader's report channel.
inline constexpr int kReportFd = 3;

/// @brief Runs @p argv (argv[0] a path) in its own process group, with stdin from /dev/null and stdout
/// and stderr appended to @p log_path. When it runs longer than @p timeout_s seconds, and in any case
/// once it has exited, its whole process group is killed, so nothing it started outlives it.
/// @param elapsed_s receives the wall time it took
/// @param working_dir the child's working directory ("" keeps the runner's)
/// @param report when not null, a pipe is opened as the child's fd kReportFd and everything written to it
///        is collected here; @p report_key, followed by a newline, is the child's standard input
/// @param more_input with @p report: further lines of the child's standard input, after the key's
/// With @p report, the time the child says it waits for the GPU lock (a "gpu_wait" record with @p report_key,
/// "state" "begin" then "end": the measured pass, which takes the lock itself) does not count against
/// @p timeout_s, up to kMaxLockWaitS in all: another grading's work is not the child's time.
/// @brief The most time a child's waits for the GPU lock add to its time limit (run_with_timeout).
inline constexpr double kMaxLockWaitS = 3600.0;

ProcessOutcome run_with_timeout(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
                                double& elapsed_s, const std::string& working_dir = "", std::string* report = nullptr,
                                const std::string& report_key = "", const std::string& more_input = "");

/// @brief The whole contents of the file at @p path, byte for byte; nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::string& path);

/// @brief The first line of a build log that reads like a compiler error, trimmed; "" when none.
std::string first_error_line(const std::string& log);

}  // namespace grading
