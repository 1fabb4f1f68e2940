// Submissions from a folder, staged in grading slots (see staging.hpp).
#include "staging.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

namespace fs = std::filesystem;

namespace grading {

namespace {
// Where a submission keeps a lab's file: DIR/NN-name/, DIR/labs/NN-name/ or DIR/ itself. Only a regular
// file that really lies inside the submission counts: a symbolic link (to the course's solutions, say, or
// another student's work), or a path through a linked folder, is refused, with the reason in @p refused.
std::optional<fs::path> find_in_submission(const fs::path& dir, const RubricLab& lab, const std::string& file,
                                           std::string& refused) {
    std::error_code ec;
    const fs::path root = fs::canonical(dir, ec);
    for (const fs::path& p : {dir / lab.dir / file, dir / "labs" / lab.dir / file, dir / file}) {
        if (!fs::exists(fs::symlink_status(p, ec)) && !fs::is_symlink(p, ec)) continue;
        const fs::path real = fs::canonical(p, ec);
        const auto [r, rel] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
        if (fs::is_symlink(p, ec) || ec || r != root.end()) {
            refused = p.string() + " is a symbolic link or lies outside the submission: submit the file itself";
            return std::nullopt;
        }
        if (fs::is_regular_file(real, ec)) return p;
    }
    return std::nullopt;
}
}  // namespace

LabFiles course_lab_files(const RubricLab& lab) {
    LabFiles f;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(GRADER_COURSE_LABS) / lab.dir, ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".cu") f.source = name;
        else if (e.path().extension() == ".cuh") f.headers.push_back(name);
    }
    return f;
}

std::vector<LabJob> stage_submission(const std::string& build_dir, const fs::path& submission, const Slot& slot,
                                     const std::vector<const RubricLab*>& labs) {
    std::vector<LabJob> jobs;
    const fs::path slot_dir = fs::path(build_dir) / "grading" / "slots" / std::to_string(slot.number);
    for (const RubricLab* lab : labs) {
        LabJob j;
        j.lab = lab;
        j.target = "lab" + lab->id + "_slot" + std::to_string(slot.number);
        j.tree_label = "submission";
        j.log_stem = "lab" + lab->id;
        const LabFiles files = course_lab_files(*lab);
        const fs::path dest = slot_dir / lab->dir;
        std::error_code ec;
        fs::remove_all(dest, ec);
        fs::create_directories(dest);
        std::string refused;
        const auto src = find_in_submission(submission, *lab, files.source, refused);
        if (!src) {
            j.missing = !refused.empty() ? refused
                                         : "the submission has no " + files.source + " (looked in " +
                                               (submission / lab->dir).string() + "/, " +
                                               (submission / "labs" / lab->dir).string() + "/ and " + submission.string() + "/)";
        } else {
            fs::copy_file(*src, dest / files.source, fs::copy_options::overwrite_existing);
            // Messages name the student's own file, not this copy (assemble_lab --submission-name-file).
            std::ofstream(dest / "source-name.txt") << src->string() << "\n";
            // Headers only from the source's own folder (they are compared with the course's, never compiled).
            for (const auto& h : files.headers) {
                std::string ignored;
                if (const auto hp = find_in_submission(src->parent_path(), *lab, h, ignored))
                    fs::copy_file(*hp, dest / h, fs::copy_options::overwrite_existing);
            }
        }
        jobs.push_back(std::move(j));
    }
    return jobs;
}

}  // namespace grading
