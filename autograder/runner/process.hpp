/// @file process.hpp
/// @brief Running a lab's program, and everything it starts, with a time limit.
#pragma once

#include "results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief The file descriptor on which a lab's program finds the grader's report channel.
inline constexpr int kReportFd = 3;

/// @brief The most a child's waits for the GPU lock add to its time limit (run_with_timeout).
inline constexpr double kMaxLockWaitS = 3600.0;

/// @brief How long run_with_timeout's keeper spends at most ending everything below it.
inline constexpr double kKeeperCleanupS = 4.0;

/// @brief How long run_with_timeout waits for its keeper after a time limit (what the program is asked to
/// say first, 0.3 s, and kKeeperCleanupS) before it kills the keeper too.
inline constexpr double kKeeperGraceS = 10.0;

/// @brief Makes this process a subreaper (PR_SET_CHILD_SUBREAPER): whatever a run_with_timeout keeper leaves
/// when it is killed (a process below it with the right can) is reparented here, and each run_with_timeout
/// then kills and reaps every child of this process that is not one of its keepers. For a runner, such as
/// grade, that starts processes through run_with_timeout only. False where the system refuses.
bool mark_runner_subreaper();

/// @brief Runs @p argv (argv[0] a path) in a process group of its own, with stdin from /dev/null and stdout
/// and stderr appended to @p log_path, under a keeper: a process between the runner and the program that is
/// a subreaper (PR_SET_CHILD_SUBREAPER), so that everything the program starts stays below it even where it
/// leaves the program's group or session (a daemon: setsid, then fork). Once the program has ended, or it
/// runs longer than @p timeout_s seconds, the keeper kills its group and every process left below it, and
/// only then ends: nothing the program started outlives the call.
/// @param elapsed_s receives the wall time it took
/// @param working_dir the child's working directory ("" keeps the runner's)
/// @param report when not null, a pipe is opened as the child's fd kReportFd and everything written to it
///        is collected here; @p report_key, followed by a newline, is the child's standard input
/// @param more_input with @p report: further lines of the child's standard input, after the key's
/// With @p report, the time the child says it waits for the GPU lock (a "gpu_wait" record with @p report_key,
/// "state" "begin" then "end": the measured pass, which takes the lock itself) does not count against
/// @p timeout_s, up to kMaxLockWaitS in all: another grading's work is not the child's time.
ProcessOutcome run_with_timeout(const std::vector<std::string>& argv, double timeout_s, const std::string& log_path,
                                double& elapsed_s, const std::string& working_dir = "", std::string* report = nullptr,
                                const std::string& report_key = "", const std::string& more_input = "");

/// @brief The whole contents of the file at @p path, byte for byte; nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::string& path);

/// @brief The first line of a build log that reads like a compiler error, trimmed; "" when none.
std::string first_error_line(const std::string& log);

}  // namespace grading
