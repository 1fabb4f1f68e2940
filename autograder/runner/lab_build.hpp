/// @file lab_build.hpp
/// @brief Building the programs that grade a submission's labs: one LabJob a lab, built with the build
/// folder's own rules (assemble_lab, audit_lab, the compiler), and what each build says.
#pragma once

#include "grading_options.hpp"
#include "results.hpp"

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace grading {

/// What a file of the grader's is: its inode, size and time of last change (the kernel sets that time on
/// any change of the file, and no process of the student's can set the clock), or that it is missing.
struct FileIdentity {
    std::string path;
    bool exists = false;
    unsigned long long device = 0, inode = 0, size = 0;
    long long changed_s = 0, changed_ns = 0;
};

/// The identities of @p paths now.
std::vector<FileIdentity> identify_files(const std::vector<std::filesystem::path>& paths);

/// Empty when every file is still what @p before identified; else which file changed and how.
std::string files_changed(const std::vector<FileIdentity>& before);

/// One lab of one submission: which program grades it, and how its build went.
struct LabJob {
    const RubricLab* lab = nullptr;
    std::string target;        // labNN_<suffix>: the program in <build>/graders
    std::string tree_label;    // "student", "solution", "wrong/<name>", "submission"
    std::string log_stem;      // its logs are <log_stem>.log, ... (default: the target)
    std::string missing;       // non-empty: the submission has no file for this lab (why)
    ProcessOutcome build;      // BuildFailed when it did not build
    double build_s = 0;
    std::vector<std::string> notes;
    std::vector<std::string> checked;  // what the build's steps checked and let through (region rules, audit)
    std::filesystem::path log;
    // The programs of the grader's that run the lab's checks (its check program and the peers' launch host),
    // as they were when built, before any code of the submission ran: checked before each run, and once
    // more at the end (files_changed).
    std::vector<FileIdentity> grader_files;
};

/// True for the classes a build decides (the compiler, the region rules, the audit), without running anything.
bool refused_at_build(Failure f);

/// Builds each job's program with @p parallel build jobs (0: one a CPU core), its log in @p log_dir, unless
/// --no-build; a job whose submission has no file for its lab fails as not compiling. @p progress, when set,
/// is told when each lab's build starts and how it ended.
void build_jobs(const GradingOptions& o, std::vector<LabJob>& jobs, const std::filesystem::path& log_dir, int parallel,
                std::ostream* progress);

}  // namespace grading
