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

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief The test case the lab program runs with `--profile-workload`.
inline constexpr const char* kProfileWorkload = "profile workload";

/// @brief The name of the grader's probe kernel in namespace grading (grading_main launches it first).
inline constexpr const char* kProfileProbeKernel = "course_bank_conflict_probe";

/// @brief A quantity the shared-memory-use check judges, summed from ncu metrics of one kernel launch.
/// The "sass" metrics count the instructions a kernel executed (with their predicate on) and the bytes
/// they moved; a warp's access to one address by many lanes counts once.
struct ProfileQuantity {
    const char* name;                  ///< as rubric.json names it, e.g. "shared_stores"
    std::vector<const char*> plus;     ///< metrics added up
    std::vector<const char*> minus;    ///< metrics taken off
    const char* says;                  ///< for people, e.g. "shared-memory store instructions (warp-level)"
};

/// @brief Every quantity the rules of rubric.json may name (see the table in profile.cpp).
const std::vector<ProfileQuantity>& profile_quantities();

/// @brief All metrics the runner asks Nsight Compute for (the bank-conflict check's and those of
/// profile_quantities()), comma-separated.
std::string profile_metrics();

/// @brief One profiled kernel launch: its name (mangled, as the runner asks) and every metric of the
/// report (NaN where ncu gave no number).
struct KernelCounts {
    std::string kernel;                       ///< its name
    std::string process;                      ///< the name of the process that launched it ("" if not given)
    std::map<std::string, double> metrics;    ///< by metric name
    /// @brief The quantity @p name (profile_quantities()); nullopt when a metric it needs is missing.
    std::optional<double> quantity(const std::string& name) const;
};

/// @brief Reads `ncu --csv --page raw` output into one entry per profiled kernel, in launch order, with
/// every numeric column. Throws std::runtime_error when there is no result table or no "Kernel Name"
/// column. Rows after the header that are not records are counted in @p malformed; @p columns receives the
/// header's column names.
std::vector<KernelCounts> parse_ncu_counts(const std::string& text, std::size_t* malformed = nullptr,
                                           std::vector<std::string>* columns = nullptr);

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

/// @brief The shared-memory-use item's result: every launch of the lab's kernels in the profile workload
/// (at each of its sizes, the benchmark's included, separated by the grader's probe) judged by the rubric's
/// rules, each a ratio of two quantities of that launch (profile_quantities()); launches of fewer than
/// `min_warps` warps are not judged (a reduction's last small step). Fails as TechniqueNotUsed naming the
/// launch, the call and the rule when one is broken, or when a call of the workload launched no kernel of
/// the lab; the rest as judge_bank_conflicts().
CheckResult judge_shared_use(const RubricSharedUse& item, const ProfileRun& run, const std::string& key,
                             double timeout_s, const std::string& lab_namespace);

/// @brief The item, not run: counted neither way (max_points 0), with @p why in its message.
CheckResult bank_conflicts_skipped(const RubricBankConflicts& item, const std::string& why);

/// @brief The item when the lab did not build: failed with the build's class, like its other checks.
CheckResult bank_conflicts_not_built(const RubricBankConflicts& item, const ProcessOutcome& build);

/// @brief bank_conflicts_skipped() for the shared-memory-use item.
CheckResult shared_use_skipped(const RubricSharedUse& item, const std::string& why);

/// @brief bank_conflicts_not_built() for the shared-memory-use item.
CheckResult shared_use_not_built(const RubricSharedUse& item, const ProcessOutcome& build);

}  // namespace grading
