/// @file results.hpp
/// @brief The runner's model: the rubric, each check's classified result, and how a lab
/// process's report and exit status become those results.
#pragma once

#include "failure.hpp"
#include "workload_arg.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace grading {

/// @brief One graded item of a lab, as the rubric defines it.
struct RubricCheck {
    std::string name;  ///< the doctest TEST_CASE name
    double points = 0; ///< its weight
    std::string visibility = "visible";  ///< when students see it on Gradescope: visible, after_due_date, after_published, hidden
    std::optional<double> threshold;  ///< the value a speed check judges against (the program must use the same)
    /// Whether the check needs the GPU to itself: it times (a threshold, or a "measured" entry saying why), or
    /// its inputs are sized by the GPU's memory. It runs in the lab program's measured pass, under the GPU
    /// lock taken alone; the other checks run in the exact pass, which other gradings' exact checks and
    /// memory checks may share. The lab program's doctest suite "measured" must say the same (rubric_check).
    bool measured = false;
    std::string criterion;            ///< when it passes, in words: the handout's table is generated from it
    /// @brief The reference solution's measured figure on each GPU calibrated on (GPU name -> lowest and
    /// highest seen); with the threshold, the margin the course's 25% rule is about.
    std::vector<std::pair<std::string, std::pair<double, double>>> reference;
};

/// @brief The runner's own item of a lab: its sanitizer workload run under compute-sanitizer's tools.
struct RubricSanitizer {
    std::string name;                ///< as reported, e.g. "memory and race check (compute-sanitizer)"
    double points = 0;               ///< its weight
    std::vector<std::string> tools;  ///< memcheck, racecheck, synccheck: in the order they run
    std::string visibility = "visible";  ///< as RubricCheck::visibility
    std::string criterion;               ///< as RubricCheck::criterion
};

/// @brief The runner's own item of a lab: its profile workload run under Nsight Compute, whose counters
/// show how many of the lab's shared-memory wavefronts were bank-conflict replays.
struct RubricBankConflicts {
    std::string name;            ///< as reported, e.g. "shared memory free of bank conflicts (Nsight Compute)"
    double points = 0;           ///< its weight
    double max_share = 0.1;      ///< the most of the loads' (and of the stores') wavefronts that may be replays
    std::string visibility = "visible";  ///< as RubricCheck::visibility
    std::string criterion;               ///< as RubricCheck::criterion
};

/// @brief One rule of the shared-memory-use item: for every judged launch of the lab's kernels,
/// quantity `measure` is at least (or at most) `factor` times quantity `of` (profile.hpp's quantities).
struct SharedUseRule {
    std::string measure;   ///< e.g. "shared_stores"
    bool at_least = true;  ///< at least (else at most)
    double factor = 0;     ///< the ratio's bound
    std::string of;        ///< e.g. "warps"
    std::string why;       ///< the technique's reasoning, shown when the rule is broken
    /// @brief When set, the rule is instead: `measure` / `of` equals the call's fact of this name (the
    /// workload states it, grading::profile_call_done()), within `tolerance` of it.
    std::string near_fact;
    double tolerance = 0;  ///< for near_fact: the largest relative difference allowed
};

/// @brief The runner's own item of a lab: its profile workload run under Nsight Compute, whose counters
/// show what the lab's kernels executed, judged against floors derived from the technique.
struct RubricSharedUse {
    std::string name;      ///< as reported, e.g. "shared memory used as the lab teaches (Nsight Compute)"
    double points = 0;     ///< its weight
    double min_warps = 0;  ///< launches of fewer warps are not judged
    std::vector<SharedUseRule> rules;    ///< all must hold
    std::string visibility = "visible";  ///< as RubricCheck::visibility
    std::string criterion;               ///< as RubricCheck::criterion
};

/// @brief One lab in the rubric.
struct RubricLab {
    std::string id;     ///< "01"
    std::string dir;    ///< "01-sum-reduction"
    std::string title;  ///< "Sum reduction"
    std::string topic;    ///< the README's list of labs: what the lab is, e.g. "sum reduction"
    std::string teaches;  ///< and what it teaches, e.g. "the shared-memory tree, where `__syncthreads()` goes, ..."
    /// @brief The least time limit of its measured pass, in seconds (rubric "measured_pass": "seconds", with
    /// "why"): where an honest measured pass can take longer than the runner's default limit (--timeout
    /// not given), it gets this much. 0: the runner's limit.
    double measured_pass_seconds = 0;
    std::vector<RubricCheck> checks;  ///< the lab program's checks, in report order
    std::optional<RubricSanitizer> sanitizer;  ///< the runner's memory and race check, reported after them
    std::optional<RubricSharedUse> shared_use;  ///< the runner's shared-memory-use check, reported after them
    std::optional<RubricBankConflicts> bank_conflicts;  ///< the runner's bank-conflict check, reported last
    /// @brief Sum of the checks' points (the runner's items included).
    double max_points() const;
};

/// @brief The course's rubric (autograder/rubric.json).
struct Rubric {
    std::vector<RubricLab> labs;  ///< in teaching order
    /// @brief The lab with id @p id, or nullptr.
    const RubricLab* find(const std::string& id) const;
};

/// @brief Parses a rubric; throws std::runtime_error naming the problem when it is malformed.
Rubric parse_rubric(const nlohmann::json& j);

/// @brief Loads the rubric from a folder of labs (each `NN-name/rubric.json` holds one lab, whose
/// "dir" must be its folder's name), in folder order; or from one file `{"labs": [...]}`.
Rubric load_rubric(const std::string& path);

/// @brief The outcome of one check.
struct CheckResult {
    std::string name;          ///< check name
    double points = 0;         ///< points earned
    double max_points = 0;     ///< points available
    Failure cls = Failure::None;  ///< Failure::None when passed
    std::string message;       ///< what went wrong
    std::string hint;          ///< where to look
    std::vector<std::string> notes;  ///< extra lines (figures, details)
    std::optional<double> value;     ///< measured figure, for speed checks
    double threshold = 0;      ///< the figure's threshold
    std::string unit;          ///< the figure's unit
    bool higher_is_better = true;  ///< direction of the threshold
    double seconds = 0;        ///< time the check took
    bool skipped = false;      ///< not run (a tool absent): no points lost or given, max_points 0
    std::string visibility = "visible";  ///< from the rubric: when students see it on Gradescope
    /// @brief True when the check passed (a skipped check counts as passed: it can change nothing).
    bool passed() const { return cls == Failure::None; }
};

/// @brief How the lab's process ended (or why it never ran).
struct ProcessOutcome {
    enum class Kind { Exited, Signaled, TimedOut, BuildFailed, NoGpu };
    Kind kind = Kind::Exited;   ///< what happened
    int code = 0;               ///< exit status, or the signal number
    double timeout_s = 0;       ///< the limit, for TimedOut
    std::string detail;         ///< the first compiler error (or the refusal), for BuildFailed
    Failure build_class = Failure::DoesNotCompile;  ///< for BuildFailed: does not compile, or refused (and how)
};

/// @brief The outcome of one lab.
struct LabResult {
    std::string id;       ///< "01"
    std::string title;    ///< "Sum reduction"
    std::string tree;     ///< what was graded: "student", "solution" or "wrong/<variant>"
    std::vector<CheckResult> checks;  ///< in rubric order
    double build_seconds = 0;  ///< time spent building
    double run_seconds = 0;    ///< time spent grading
    std::string log_path;      ///< the lab process's full output
    std::vector<std::string> notes;  ///< about the lab as a whole (edits outside the regions, ...)
    /// @brief What the lab's checks handed to its workload runs (grading::hand_to_workloads): name and
    /// value, each given back to the workloads as `--workload-arg name=value`.
    std::map<std::string, std::string> workload_args;
    /// @brief Seconds the lab's measured checks had the GPU to themselves, as the lab's program counted them
    /// (it held the GPU lock shared and took it alone around what it timed: grading::GpuAlone); -1 where the
    /// runner held the lock alone for the whole pass instead (one pass a lab).
    double alone_seconds = -1;
    /// @brief Points earned.
    double points() const;
    /// @brief Points available.
    double max_points() const;
    /// @brief True when every check passed.
    bool passed() const;
    /// @brief The highest-precedence failure class among the checks (Failure::None when all passed).
    Failure primary_failure() const;
};

/// @brief Combines a lab's records (one JSON object a line, from the grader's channel) and its process
/// outcome into one result per rubric check. A check that started but never ended is charged to the way
/// the process ended (timeout, crash, lost context); checks that never started are "not run".
///
/// When @p key is given, the records must be exactly what the lab's checks send: each carries the key
/// and the next sequence number; a start and an end for each rubric check, in rubric order, none twice
/// and none unknown; then one "done". A run that exited on its own must have all of them. Anything else
/// fails every check of the lab as Failure::GraderIntegrity, whatever the records claimed.
LabResult merge_lab_report(const RubricLab& lab, const std::string& tree, const std::vector<nlohmann::json>& lines,
                           const ProcessOutcome& outcome, const std::string& key = "");

/// @brief @p lab with only the checks of one pass of its program: the measured ones (RubricCheck::measured),
/// or the exact ones.
RubricLab pass_checks(const RubricLab& lab, bool measured);

/// @brief What one pass of a lab's program (`--pass exact` or `--pass measured`) left: its records, how its
/// process ended and its channel's key; or, where the pass was not started, why.
struct PassReport {
    std::vector<nlohmann::json> lines;
    ProcessOutcome outcome;
    std::string key;
    std::string not_started;  ///< non-empty: the pass did not run, and this says why (its checks are "not run")
};

/// @brief One result a rubric check, in rubric order, from a lab program run in two passes: each pass's
/// records are judged as merge_lab_report() judges a whole run, against the checks of that pass alone
/// (pass_checks()), so a record of the wrong pass, a pass that ended early or a broken channel fails its
/// own pass's checks. The workload arguments of both passes are kept (the exact pass's first).
LabResult merge_lab_passes(const RubricLab& lab, const std::string& tree, const PassReport& exact,
                           const PassReport& measured);

/// @brief "" when @p lines are a faithful record stream for @p lab (see merge_lab_report()), else the
/// first thing wrong with them.
std::string channel_problem(const RubricLab& lab, const std::vector<nlohmann::json>& lines, const ProcessOutcome& outcome,
                            const std::string& key);

/// @brief The seconds a lab's program says, in its last record ("done", with @p key), it had the GPU to
/// itself; nullopt where it says nothing (it was not handed the GPU lock, or did not reach its end).
std::optional<double> alone_seconds_of(const std::vector<nlohmann::json>& lines, const std::string& key);

/// @brief Why a measured pass's program ended without a verdict, from its records (@p lines, channel key
/// @p key): its "disturbed" record, sent when something outside the grading kept the GPU busy or held its
/// performance monitors with the student's process ended (isolation::GpuDisturbed). Nothing when it sent none.
std::optional<std::string> disturbed_reason_of(const std::vector<nlohmann::json>& lines, const std::string& key);

/// @brief Parses JSON-lines text, skipping blank lines and a torn last line.
std::vector<nlohmann::json> parse_json_lines(const std::string& text);

}  // namespace grading
