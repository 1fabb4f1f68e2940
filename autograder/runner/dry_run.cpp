// Grading without a GPU (see dry_run.hpp).
#include "dry_run.hpp"

#include "profile.hpp"
#include "resources.hpp"
#include "sanitizer.hpp"
#include "staging.hpp"

#include "device_info.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace grading {

namespace {
std::vector<std::string> split_paths(const std::string& joined) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    while (start <= joined.size()) {
        const auto end = std::min(joined.find(':', start), joined.size());
        if (end > start) out.push_back(joined.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// confined_compile and its options (the same as the lab programs' compiles: confined_compile.cpp), for a
// compile that reads @p reads besides the system and the toolkit, and writes only in @p work.
std::vector<std::string> confined_compile_launcher(const std::vector<std::string>& reads, const std::string& work) {
    std::vector<std::string> l = {GRADER_CONFINED_COMPILE};
    for (const auto& r : split_paths(GRADER_CONFINED_READS)) l.insert(l.end(), {"--read", r});
    for (const auto& r : reads) l.insert(l.end(), {"--read", r});
    l.insert(l.end(), {"--write", work, "--tmp", (fs::path(work) / "tmp").string()});
    for (const auto& p : split_paths(GRADER_CONFINED_PROTECT)) l.insert(l.end(), {"--protect", p});
    l.push_back("--");
    return l;
}

// What a build without a GPU can say of a lab that compiles: what its build checked and let through, what
// each kernel costs the GPU the build targets (resources.hpp), and what was not run, and why.
void dry_run_report(const GradingOptions& o, const LabJob& j, std::ostream& out) {
    for (const auto& c : j.checked) out << "  passed: " << c << "\n";
    const LabFiles files = course_lab_files(*j.lab);
    const fs::path graded = fs::path(o.build_dir) / "graded" / j.target / files.source;
    const int arch = std::atoi(GRADER_RESOURCE_ARCH);
    const std::string interface_dir = (fs::path(GRADER_COURSE_LABS) / j.lab->dir).string();
    const fs::path work = fs::path(o.build_dir) / "graded" / j.target / "resources";  // out of the grading slots' folder
    const ResourceReport r = kernel_resources(GRADER_NVCC, GRADER_NVCC_FLAGS, GRADER_CUDA_STANDARD, arch, graded.string(),
                                              {interface_dir, GRADER_COMMON_DIR}, work.string(),
                                              confined_compile_launcher({interface_dir, GRADER_COMMON_DIR,
                                                                         graded.string()},
                                                                        work.string()));
    for (const auto& w : r.warnings) out << "  compiler warning: " << w << "\n";
    if (!r.error.empty()) {
        out << "  kernels: not read (" << r.error << ")\n";
    } else {
        const SmLimits sm = sm_limits(arch);
        std::vector<std::string> warnings;
        out << "  kernels, as ptxas builds them for sm_" << arch << " (registers a thread, spills, static shared memory a "
            << "block, the largest block):\n";
        for (const auto& k : r.kernels) out << "    " << resource_line(k, sm, warnings) << "\n";
        if (r.kernels.empty()) out << "    (none)\n";
        for (const auto& w : warnings) out << "  warning: " << w << "\n";
    }
    std::string items = "the lab's " + std::to_string(j.lab->checks.size()) + " checks";
    if (j.lab->sanitizer) items += "; " + j.lab->sanitizer->name;
    if (j.lab->shared_use) items += "; " + j.lab->shared_use->name;
    if (j.lab->bank_conflicts) items += "; " + j.lab->bank_conflicts->name;
    out << "  not run (they run your kernels, and this machine has no GPU): " << items << "\n";
}
}  // namespace

int dry_run(const GradingOptions& o, std::vector<LabJob>& jobs, const fs::path& log_dir,
            const std::string& expect) {
    int broken = 0;
    bool as_expected = true, decided = true;
    build_jobs(o, jobs, log_dir, o.jobs, nullptr);
    for (const auto& j : jobs) {
        const ProcessOutcome& b = j.build;
        const bool ok = b.kind != ProcessOutcome::Kind::BuildFailed;
        broken += !ok;
        std::cout << "Lab " << j.lab->id << " (" << j.lab->title << "): "
                  << (o.no_build && j.missing.empty() ? "not built (--no-build)"
                      : ok                            ? "compiles"
                      : b.build_class == Failure::DoesNotCompile
                          ? "DOES NOT COMPILE: " + b.detail
                          : "REFUSED (" + std::string(to_string(b.build_class)) + "): " + b.detail)
                  << "\n";
        if (ok && !o.no_build) dry_run_report(o, j, std::cout);
        for (const auto& n : j.notes) std::cout << "  note: " << n << "\n";
        if (!expect.empty()) {
            const std::string got = ok ? "compiles" : std::string(to_string(b.build_class));
            if (ok && !refused_at_build(*failure_from_string(expect))) decided = false;
            else if (got != expect) as_expected = false;
            std::cout << "  expected " << expect << ", " << (ok ? "it builds" : "got " + got) << "\n";
        }
    }
    std::cerr << "grade: nothing was graded (no GPU); run it again on a machine with an NVIDIA GPU.\n";
    if (!expect.empty()) return !as_expected ? 1 : decided ? 0 : course::kExitNoGpu;
    return broken ? 1 : 0;
}

std::vector<LabResult> build_only_results(const std::vector<LabJob>& jobs) {
    std::vector<LabResult> out;
    for (const auto& j : jobs) {
        ProcessOutcome o = j.build;
        if (o.kind != ProcessOutcome::Kind::BuildFailed) o = {ProcessOutcome::Kind::NoGpu, 0, 0, ""};
        LabResult r = merge_lab_report(*j.lab, j.tree_label, {}, o);
        for (auto& c : r.checks)
            if (c.cls == Failure::NotRun || c.cls == Failure::Crash) {
                c.cls = Failure::NotRun;
                c.message = "not run: no GPU on this machine";
            }
        // The runner's own items: failed with the build's class, or not run for want of a GPU.
        std::vector<CheckResult> items;
        if (j.lab->sanitizer) items.push_back(sanitizer_not_built(*j.lab->sanitizer, o));
        if (j.lab->shared_use) items.push_back(shared_use_not_built(*j.lab->shared_use, o));
        if (j.lab->bank_conflicts) items.push_back(bank_conflicts_not_built(*j.lab->bank_conflicts, o));
        for (CheckResult& c : items) {
            if (o.kind != ProcessOutcome::Kind::BuildFailed) c.cls = Failure::NotRun, c.message = "not run: no GPU on this machine";
            r.checks.push_back(std::move(c));
        }
        r.build_seconds = j.build_s;
        r.log_path = j.log.string();
        r.notes = j.notes;
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace grading
