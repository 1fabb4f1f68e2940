/// @file dry_run.hpp
/// @brief Grading on a machine without a GPU: each lab built (assembled and audited too), what its build
/// checked, what each kernel costs the GPU the build targets, and what was not run, and why.
#pragma once

#include "grading_options.hpp"
#include "lab_build.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace grading {

/// Builds @p jobs (their logs in @p log_dir) and prints what each build says. With @p expect (a class, or
/// ""), also whether each lab ended as expected, as far as a build decides it. Returns grade's exit status:
/// 1 when a lab does not build (with @p expect: ended otherwise), 77 when only a GPU can decide @p expect,
/// else 0.
int dry_run(const GradingOptions& o, std::vector<LabJob>& jobs, const std::filesystem::path& log_dir,
            const std::string& expect);

/// Build-only results (no GPU): each lab "compiles" (its checks not run) or fails with its build class.
std::vector<LabResult> build_only_results(const std::vector<LabJob>& jobs);

}  // namespace grading
