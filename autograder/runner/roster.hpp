/// @file roster.hpp
/// @brief Grading a roster (grade --roster): a folder of submissions, one folder a student, into one
/// gradebook; in shards, resumable, and built without a GPU when there is none.
#pragma once

#include "grading_options.hpp"
#include "reports.hpp"
#include "results.hpp"

#include <filesystem>
#include <vector>

namespace grading {

/// What --roster, --gradebook, --shard, --merge-only and --regrade ask, and whether a GPU grades it.
struct RosterOptions {
    std::filesystem::path roster, out;
    int shard = 0, shards = 1;
    bool merge_only = false, regrade = false, gpu = true;
};

/// Grades a roster: builds run in parallel (one grading slot each), GPU work one student at a time under
/// the GPU lock, in the order builds finish. Each student's reports go to OUT/students/<id>/, marked
/// complete at the end, so an interrupted roster resumes where it stopped.
int grade_roster(const GradingOptions& o, const RosterOptions& ro, const Rubric& rubric,
                 const std::vector<const RubricLab*>& labs, RunInfo info);

}  // namespace grading
