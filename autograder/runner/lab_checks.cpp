// Running built labs' checks (see lab_checks.hpp).
#include "lab_checks.hpp"
#include "locks.hpp"

#include "process.hpp"
#include "sanitizer.hpp"
#include "secret.hpp"

#include "device_info.hpp"
#include "random.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace grading {

std::string channel_key() {
    std::random_device rd;
    std::ostringstream s;
    s << std::hex;
    for (int i = 0; i < 4; ++i) s << rd();
    return s.str();
}

std::string secret_input(const GradingOptions& o, std::uint64_t seed) {
    return o.secret ? secret_line(secret_for_run(*o.secret, seed)) : std::string();
}

namespace {
// How many times a lab's measured pass runs where something outside the grading keeps disturbing it.
constexpr int kDisturbedTries = 3;
}  // namespace

std::optional<int> run_checks(const GradingOptions& o, std::vector<LabJob>& jobs, const fs::path& log_dir, RunInfo& info,
                              std::vector<LabResult>& results, std::ostream& out) {
    const fs::path scratch_root = fs::path(o.build_dir) / "grading" / "scratch";
    // COURSE_GRADER_ONE_PASS=1 runs every check of a lab in one process with the GPU to itself instead, as
    // before the two passes: to measure what the second process costs, on the same GPU.
    const char* one = std::getenv("COURSE_GRADER_ONE_PASS");
    const bool one_pass = one && std::string(one) == "1";
    // COURSE_GRADER_MEASURED_ALONE=1 keeps the lock alone for the whole measured pass, as before it was handed
    // to the lab's program: to compare throughput and figures both ways, on the same GPU.
    const char* whole = std::getenv("COURSE_GRADER_MEASURED_ALONE");
    const bool whole_alone = whole && std::string(whole) == "1";
    for (auto& j : jobs) {
        out << "Lab " << j.lab->id << " (" << j.lab->title << ", " << j.tree_label << "): " << std::flush;
        if (o.sanitizer_mode == "only") {
            // Only the runner's own item: the lab's checks are not run, and not reported.
            out << (j.build.kind == ProcessOutcome::Kind::BuildFailed ? "does not build" : "built") << "\n";
            results.push_back({j.lab->id, j.lab->title, j.tree_label, {}, j.build_s, 0, j.log.string(), j.notes});
            info.build_seconds += j.build_s;
            continue;
        }
        double run_s = 0;
        const fs::path exe = fs::path(o.build_dir) / "graders" / j.target;
        if (j.build.kind != ProcessOutcome::Kind::BuildFailed && !fs::exists(exe))
            j.build = {ProcessOutcome::Kind::BuildFailed, 0, 0, "no program " + exe.string() + " (build it first)"};
        LabResult r;
        if (j.build.kind == ProcessOutcome::Kind::BuildFailed) {
            r = merge_lab_report(*j.lab, j.tree_label, {}, j.build, channel_key());
        } else {
            out << "checking... " << std::flush;
            // Two passes of the lab's program, each a process of its own with a fresh, empty scratch folder as
            // its working folder (files for the student to look at, plots, go to the log folder, named by
            // --artifacts): the exact checks, beside other gradings' exact checks and memory checks (the GPU
            // lock shared), then the measured ones (timed, or sized by the GPU's memory) with the GPU to
            // themselves (the lock alone; the GPU's performance monitors are sampled only then).
            PassReport passes[2];
            bool started = false;  // whether a pass of this lab already ran
            std::string changed;   // a program of the grader's that changed since it was built (files_changed)
            for (int m = 0; m < 2 && changed.empty(); ++m) {
                PassReport& p = passes[m];
                if (one_pass && m == 0) continue;
                const auto in_pass = [m](const RubricCheck& c) { return c.measured == (m == 1); };
                if (!one_pass && std::none_of(j.lab->checks.begin(), j.lab->checks.end(), in_pass)) continue;
                if (m == 1 && passes[0].outcome.kind == ProcessOutcome::Kind::TimedOut) {
                    // A lab that hung in its exact checks would hang again: its time limit is not spent twice.
                    p.not_started = "not run: the lab's exact checks reached the time limit (" + num(o.timeout_s, 0) +
                                    " s), so its timed checks were not started";
                    continue;
                }
                // The exact pass runs under the lock taken shared here. The measured pass is handed the lock
                // (--gpu-lock): its program holds it shared too, and takes it alone only around what it times
                // or sizes by the GPU's free memory, so that its set-up and verification share the GPU. One
                // pass a lab runs under the lock taken alone here, as before the two passes.
                const bool handed = m == 1 && !one_pass && !whole_alone;
                // A measured pass that something outside this grading disturbed ends with no verdict (the GPU
                // stayed busy, or its monitors taken, with the student's process ended): it runs again, up to
                // kDisturbedTries times in all, and past that the grading stops with no verdict at all.
                for (int attempt = 1;; ++attempt) {
                    const FileLock gpu =
                        handed ? FileLock{} : take_gpu(o.gpu_lock, m == 1 ? GpuUse::Measured : GpuUse::Shared);
                    const fs::path scratch = scratch_root / j.target;
                    std::error_code ec;
                    fs::remove_all(scratch, ec);
                    fs::create_directories(scratch);
                    // A measured pass run again after a disturbance draws inputs of its own: nothing a process of
                    // the student's saw in an earlier try can be replayed in this one (the seed is in the log).
                    const std::uint64_t seed =
                        attempt == 1 ? info.seed : course::hash64(info.seed, 0xd15ull + static_cast<std::uint64_t>(attempt));
                    if (attempt > 1) std::ofstream(j.log, std::ios::app) << "(seed of this try: " << seed << ")\n";
                    std::vector<std::string> cmd = {exe.string(), "--seed", std::to_string(seed), "--report-fd",
                                                    std::to_string(kReportFd), "--artifacts", log_dir.string()};
                    if (!one_pass) cmd.insert(cmd.end(), {"--pass", m == 1 ? "measured" : "exact"});
                    if (handed) cmd.insert(cmd.end(), {"--gpu-lock", o.gpu_lock});
                    if (o.quick) cmd.push_back("--quick");
                    p.key = channel_key();
                    // The lab's log holds both passes, one after the other: each starts with a line that says which.
                    std::ofstream(j.log, std::ios::app)
                        << "\n== " << (one_pass ? "every check" : m == 1 ? "the measured checks (timed, or sized by the GPU's memory)"
                                                                   : "the exact checks")
                        << " of lab " << j.lab->id << ", in a process of their own ==\n";
                    std::string records;
                    double pass_s = 0;
                    // A lab's measured pass that takes longer when honest (its rubric's "measured_pass") gets
                    // that long, unless a limit was given.
                    const double limit = m == 1 && !o.timeout_given ? std::max(o.timeout_s, j.lab->measured_pass_seconds)
                                                                    : o.timeout_s;
                    // Only the programs built before the submission's code ran are run.
                    if (changed = files_changed(j.grader_files); !changed.empty()) break;
                    p.outcome = run_with_timeout(cmd, limit, j.log.string(), pass_s, scratch.string(), &records, p.key,
                                                 secret_input(o, seed));
                    p.outcome.timeout_s = limit;
                    run_s += pass_s;
                    // 77 and 78 are believed only from a program that had not started its checks, in the lab's
                    // first pass: a lab's code that ends the process with them, or leaves the GPU unusable for
                    // the next pass, must not turn a grade into "no GPU" (the pass's checks are charged instead).
                    if (!started && p.outcome.kind == ProcessOutcome::Kind::Exited && records.empty() &&
                        (p.outcome.code == course::kExitNoGpu || p.outcome.code == course::kExitUnsupportedGpu)) {
                        std::cerr << "\n" << read_text_file(j.log.string()).value_or("");
                        return p.outcome.code;
                    }
                    started = true;
                    p.lines = parse_json_lines(records);
                    const auto why = m == 1 ? disturbed_reason_of(p.lines, p.key) : std::nullopt;
                    if (!why) break;
                    std::ofstream(j.log, std::ios::app) << "\n(the measured checks were disturbed, attempt " << attempt
                                                        << " of " << kDisturbedTries << ": " << *why << ")\n";
                    if (attempt == kDisturbedTries) {
                        std::cerr << "\ngrade: lab " << j.lab->id << "'s measurements were disturbed " << kDisturbedTries
                                  << " times by work from outside this grading (" << *why
                                  << "); nothing was graded. Grade again once the GPU runs nothing else.\n";
                        return course::kExitGpuDisturbed;
                    }
                    // Whatever disturbed it is given a little time to end before the next try.
                    std::this_thread::sleep_for(std::chrono::seconds(5 * attempt));
                }
            }
            if (!changed.empty()) {
                j.build = grader_changed(changed);
                r = merge_lab_report(*j.lab, j.tree_label, {}, j.build, channel_key());
            } else {
                r = one_pass ? merge_lab_report(*j.lab, j.tree_label, passes[1].lines, passes[1].outcome, passes[1].key)
                             : merge_lab_passes(*j.lab, j.tree_label, passes[0], passes[1]);
                if (!one_pass && !whole_alone)
                    r.alone_seconds = alone_seconds_of(passes[1].lines, passes[1].key).value_or(-1);
            }
        }
        r.build_seconds = j.build_s;
        r.run_seconds = run_s;
        r.log_path = j.log.string();
        r.notes = j.notes;
        info.build_seconds += j.build_s;
        info.grade_seconds += run_s;
        out << (r.passed() ? "pass" : "FAIL (" + title(r.primary_failure()) + ")") << "\n" << std::flush;
        results.push_back(std::move(r));
    }
    return std::nullopt;
}

ProcessOutcome grader_changed(const std::string& what) {
    return {ProcessOutcome::Kind::BuildFailed, 0, 0,
            "a program of the grader's changed while this lab was graded (" + what +
                "): only the programs built before the submission's code ran may grade it, so the lab gets no points "
                "(if the course was rebuilt in another terminal meanwhile, grade again)",
            Failure::GraderIntegrity};
}

void fail_changed_graders(std::vector<LabJob>& jobs, std::vector<LabResult>& results, std::ostream& out) {
    for (std::size_t i = 0; i < jobs.size() && i < results.size(); ++i) {
        const std::string what = files_changed(jobs[i].grader_files);
        if (what.empty()) continue;
        const ProcessOutcome changed = grader_changed(what);
        out << "Lab " << jobs[i].lab->id << ": FAIL (" << title(Failure::GraderIntegrity) << "): " << changed.detail << "\n";
        for (auto& c : results[i].checks) {
            set_failure(c, Failure::GraderIntegrity, changed.detail);
            c.hint = "grade again; a lab's code may write only in its own scratch folder, never the course's files";
            c.points = 0;
            c.skipped = false;
        }
        // The next build makes them again from the course's sources.
        std::error_code ec;
        for (const auto& f : jobs[i].grader_files) fs::remove(f.path, ec);
    }
}

}  // namespace grading
