/// @file lab_checks.hpp
/// @brief Running built labs' checks: each lab program in a fresh scratch folder, with a time limit, its
/// records read from the report channel, and merged with the rubric into the lab's result.
#pragma once

#include "grading_options.hpp"
#include "lab_build.hpp"
#include "reports.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace grading {

/// A fresh key for one lab run's report channel: 128 bits from the system's entropy.
std::string channel_key();

/// What a lab program of a run with @p seed reads of the instructor's secret after the channel's key: a
/// value keyed by the secret and the seed, so nothing a lab learns in one run carries to another.
std::string secret_input(const GradingOptions& o, std::uint64_t seed);

/// Runs the checks of built labs, one lab at a time, each lab's program in two passes: its exact checks
/// with the GPU lock shared (take_gpu, GpuUse::Shared: other gradings' exact checks and memory checks may
/// run beside them), then its measured checks (RubricCheck::measured: they time the GPU, sample its
/// counters, or size inputs by its memory) with the GPU to themselves (GpuUse::Measured). Returns a lab
/// program's 77/78 when it said the GPU cannot be used before any check ran.
std::optional<int> run_checks(const GradingOptions& o, std::vector<LabJob>& jobs, const std::filesystem::path& log_dir,
                              RunInfo& info, std::vector<LabResult>& results, std::ostream& out);

/// The outcome of a lab whose grader's programs changed during its grading (@p what: files_changed's
/// words): a build failure of class GraderIntegrity, so that nothing more of the lab runs.
ProcessOutcome grader_changed(const std::string& what);

/// After every run of a grading: each lab whose grader's programs changed since they were built
/// (LabJob::grader_files) fails every check as GraderIntegrity, and the changed programs are removed, so
/// that the next grading builds them again rather than trusting what the submission left.
void fail_changed_graders(std::vector<LabJob>& jobs, std::vector<LabResult>& results, std::ostream& out);

}  // namespace grading
