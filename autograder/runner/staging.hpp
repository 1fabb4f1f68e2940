/// @file staging.hpp
/// @brief Submissions from a folder (grade --labs-dir, --roster): finding each lab's file in a submission
/// and copying it into a grading slot, whose programs then grade it; the submission is only read.
#pragma once

#include "lab_build.hpp"
#include "locks.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace grading {

/// The course's source and headers of a lab: the one .cu and the .cuh files in labs/NN-name.
struct LabFiles {
    std::string source;
    std::vector<std::string> headers;
};
LabFiles course_lab_files(const RubricLab& lab);

/// Copies a submission's lab files into @p slot's folder (the submission is only read) and returns the
/// jobs that grade them with the slot's programs. What the slot's last compile of each lab left (its object,
/// nvcc's intermediate files) is removed first: the next compile may read its own folders, and those held
/// the previous submission's code.
std::vector<LabJob> stage_submission(const std::string& build_dir, const std::filesystem::path& submission,
                                     const Slot& slot, const std::vector<const RubricLab*>& labs);

}  // namespace grading
