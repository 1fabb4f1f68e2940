/// @file profile.hpp
/// @brief The runner's bank-conflict check: a lab's profile workload (doctest test suite "profile": the
/// lab's code at one or two sizes) run under Nsight Compute (ncu), which counts, for every kernel, the
/// shared-memory wavefronts of its loads and stores and how many of them were bank-conflict replays.
///
/// The workload first launches the grader's own probe kernel, whose loads are 2-way bank-conflicted by
/// construction and whose stores are conflict-free. The probe proves the counters work on this machine
/// (it must read as about half of its load wavefronts conflicted, and none of its stores); every other
/// kernel profiled is the lab's (the probe's name is in the grader's namespace, which a lab cannot use).
#pragma once

#include "results.hpp"

#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief The test case the lab program runs with `--workload profile`.
inline constexpr const char* kProfileWorkload = "bank conflict workload";

/// @brief The name of the grader's probe kernel in namespace grading (grading_main launches it first).
inline constexpr const char* kProfileProbeKernel = "course_bank_conflict_probe";

/// @brief The Nsight Compute metrics the check reads, comma-separated.
inline constexpr const char* kProfileMetrics =
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";

/// @brief One profiled kernel's shared-memory traffic.
struct SharedTraffic {
    std::string kernel;           ///< its name, as ncu prints it (mangled, as the runner asks)
    double load_wavefronts = 0;   ///< shared-memory load wavefronts processed
    double load_conflicts = 0;    ///< of which bank-conflict replays
    double store_wavefronts = 0;  ///< shared-memory store wavefronts processed
    double store_conflicts = 0;   ///< of which bank-conflict replays
};

/// @brief Reads `ncu --csv --page raw` output: one entry per profiled kernel, in launch order. Throws
/// std::runtime_error when there is no result table or a metric's column is missing. Rows after the
/// header that are not records (a wrong number of fields, no ID) are counted in @p malformed.
std::vector<SharedTraffic> parse_ncu_csv(const std::string& text, std::size_t* malformed = nullptr);

/// @brief The command that profiles @p program (argv, argv[0] a path) with @p ncu, its report going to
/// @p log_file.
std::vector<std::string> ncu_command(const std::string& ncu, const std::string& log_file,
                                     const std::vector<std::string>& program);

/// @brief One run of a lab's profile workload under ncu.
struct ProfileRun {
    ProcessOutcome outcome;  ///< how ncu (and so the program) ended
    std::string log_text;    ///< ncu's log: its messages and the CSV report
    std::string log_path;    ///< where it is kept, for the student
    std::string records;     ///< what the workload sent through the grader's channel
    double seconds = 0;      ///< wall time
};

/// @brief The conflict share of a kind of access: conflict replays / wavefronts (0 when none).
inline double conflict_share(double conflicts, double wavefronts) { return wavefronts > 0 ? conflicts / wavefronts : 0.0; }

/// @brief The item's result. The workload's end record gives the elements it transposed: a transpose
/// needs one load and one store wavefront for every 32, and the lab's conflict replays (summed over its
/// kernels) are counted against those, not against the traffic the lab made, so added conflict-free
/// traffic cannot dilute them. Skipped (not run, max_points 0) only when the workload ran faithfully and
/// the grader's probe was not profiled or misread (the counters cannot be read here); failed as
/// TechniqueNotUsed when the loads' or the stores' replays exceed the rubric's share of what is needed,
/// or the lab made no shared-memory access; as the way the run ended when it timed out or crashed; as
/// GraderIntegrity when the workload's records are not exactly one faithful start, end and done under
/// @p key, the probe ran more than once, or a kernel outside @p lab_namespace ran.
CheckResult judge_bank_conflicts(const RubricBankConflicts& item, const ProfileRun& run, const std::string& key,
                                 double timeout_s, const std::string& lab_namespace);

/// @brief The item, not run: counted neither way (max_points 0), with @p why in its message.
CheckResult bank_conflicts_skipped(const RubricBankConflicts& item, const std::string& why);

/// @brief The item when the lab did not build: failed with the build's class, like its other checks.
CheckResult bank_conflicts_not_built(const RubricBankConflicts& item, const ProcessOutcome& build);

}  // namespace grading
