// Building the programs that grade a submission's labs (see lab_build.hpp).
#include "lab_build.hpp"

#include "process.hpp"
#include "verdict.hpp"

#include <sys/stat.h>

#include <cstdlib>

#include <algorithm>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace grading {

namespace {
// Builds one lab program. On failure, the outcome says why: a refusal found by assemble_lab or audit_lab
// (their verdicts), else the compiler's first error. The verdicts' notes (edits outside the regions, a
// changed header) are returned in @p notes either way, and what they checked and let through in @p checked.
ProcessOutcome build_lab(const std::string& build_dir, const std::string& target, int jobs, const fs::path& log,
                         double& seconds, std::vector<std::string>& notes, std::vector<std::string>& checked) {
    const fs::path work = fs::path(build_dir) / "graded" / target;
    // A step the build finds up to date leaves no new verdict; its last one stands for a build that
    // succeeds (its notes and what it checked are still true), never for one that fails.
    std::error_code ec;
    for (const char* v : {"regions", "audit"})
        fs::rename(work / (std::string(v) + ".json"), work / (std::string(v) + ".previous.json"), ec);
    // A step with no verdict at all (a build folder an older grader used) runs again: remove its output.
    if (!fs::exists(work / "regions.previous.json"))
        for (const auto& e : fs::directory_iterator(work, ec))
            if (e.path().extension() == ".cu") fs::remove(e.path(), ec);
    if (!fs::exists(work / "audit.previous.json")) fs::remove(work / "audit.ok", ec);
    std::vector<std::string> cmd = {GRADER_CMAKE_COMMAND, "--build", build_dir, "--target", target};
    if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    cmd.insert(cmd.end(), {"--parallel", std::to_string(jobs)});
    const ProcessOutcome b = run_with_timeout(cmd, 1800, log.string(), seconds);
    const bool built = b.kind == ProcessOutcome::Kind::Exited && b.code == 0;
    for (const char* v : {"regions", "audit"})
        if (built && !fs::exists(work / (std::string(v) + ".json")))
            fs::rename(work / (std::string(v) + ".previous.json"), work / (std::string(v) + ".json"), ec);
    const auto regions = Verdict::read((work / "regions.json").string());
    const auto audit = Verdict::read((work / "audit.json").string());
    for (const auto* v : {&regions, &audit})
        if (*v) notes.insert(notes.end(), (*v)->notes.begin(), (*v)->notes.end());
    // What the compile's confinement could not do (confined_compile.cpp: no Landlock on this system), from
    // its report, which the compile itself cannot write (what it prints could say anything).
    std::istringstream confinement(read_text_file((work / "confinement.txt").string()).value_or(""));
    for (std::string line; std::getline(confinement, line);) {
        const std::string note = "the build: " + line;
        if (!line.empty() && std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(note);
    }
    for (const auto* v : {&regions, &audit})
        if (*v && (*v)->ok && !(*v)->checked.empty()) checked.push_back((*v)->checked);
    if (built) return {};
    ProcessOutcome out{ProcessOutcome::Kind::BuildFailed, b.code, 0, ""};
    for (const auto* v : {&regions, &audit}) {
        if (*v && !(*v)->ok) {
            out.build_class = failure_from_string((*v)->cls).value_or(Failure::DoesNotCompile);
            out.detail = (*v)->message;
            return out;
        }
    }
    out.detail = first_error_line(read_text_file(log.string()).value_or(""));
    if (out.detail.empty()) out.detail = "the build failed; see " + log.string();
    return out;
}
}  // namespace

bool refused_at_build(Failure f) {
    return f == Failure::DoesNotCompile || f == Failure::RefusedRegion || f == Failure::ForbiddenSymbol;
}

namespace {
FileIdentity identify(const fs::path& p) {
    FileIdentity id;
    id.path = p.string();
    struct stat st {};
    if (::stat(id.path.c_str(), &st) == 0) {
        id.exists = true;
        id.device = st.st_dev;
        id.inode = st.st_ino;
        id.size = static_cast<unsigned long long>(st.st_size);
        id.changed_s = st.st_ctim.tv_sec;
        id.changed_ns = st.st_ctim.tv_nsec;
    }
    return id;
}
}  // namespace

std::vector<FileIdentity> identify_files(const std::vector<fs::path>& paths) {
    std::vector<FileIdentity> ids;
    for (const auto& p : paths) ids.push_back(identify(p));
    return ids;
}

std::string files_changed(const std::vector<FileIdentity>& before) {
    for (const FileIdentity& b : before) {
        const FileIdentity n = identify(b.path);
        if (b.exists != n.exists) return b.path + (n.exists ? " appeared" : " was removed");
        if (!b.exists) continue;
        if (b.device != n.device || b.inode != n.inode) return b.path + " was replaced by another file";
        if (b.size != n.size || b.changed_s != n.changed_s || b.changed_ns != n.changed_ns)
            return b.path + " was changed";
    }
    return "";
}

void build_jobs(const GradingOptions& o, std::vector<LabJob>& jobs, const fs::path& log_dir, int parallel,
                std::ostream* progress) {
    // What the compiles must not reach besides the course's own: confined_compile reads it from here.
    std::string protect;
    for (const auto& p : o.protect) protect += (protect.empty() ? "" : ":") + p;
    ::setenv("GRADER_CONFINED_PROTECT", protect.c_str(), 1);
    for (auto& j : jobs) {
        if (j.log_stem.empty()) j.log_stem = j.target;
        j.log = log_dir / (j.log_stem + ".log");
        fs::remove(j.log);
        if (!j.missing.empty()) {
            j.build = {ProcessOutcome::Kind::BuildFailed, 0, 0, j.missing, Failure::DoesNotCompile};
            continue;
        }
        if (o.no_build) continue;
        if (progress) *progress << "Lab " << j.lab->id << ": building... " << std::flush;
        j.build = build_lab(o.build_dir, j.target, parallel, j.log, j.build_s, j.notes, j.checked);
        if (progress) *progress << (j.build.kind == ProcessOutcome::Kind::BuildFailed ? "does not build\n" : "built\n");
    }
    // Before any code of the submission runs.
    for (auto& j : jobs) {
        const fs::path graders = fs::path(o.build_dir) / "graders";
        j.grader_files = identify_files({graders / j.target, graders / ("lab" + j.lab->id + "_peer_host")});
    }
}

}  // namespace grading
