// Running built labs' checks (see lab_checks.hpp).
#include "lab_checks.hpp"
#include "locks.hpp"

#include "process.hpp"
#include "secret.hpp"

#include "device_info.hpp"

#include <iostream>
#include <random>
#include <sstream>

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

std::optional<int> run_checks(const GradingOptions& o, std::vector<LabJob>& jobs, const fs::path& log_dir, RunInfo& info,
                              std::vector<LabResult>& results, std::ostream& out) {
    // The checks time the GPU and sample its counters: nothing else runs on it meanwhile. With --sanitizer
    // only, no check runs, and the GPU is not taken here.
    const FileLock gpu = o.sanitizer_mode == "only" ? FileLock() : take_gpu(o.gpu_lock, GpuUse::Measured);
    const fs::path scratch_root = fs::path(o.build_dir) / "grading" / "scratch";
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
        std::string records;
        const std::string key = channel_key();
        ProcessOutcome outcome = j.build;
        if (outcome.kind != ProcessOutcome::Kind::BuildFailed) {
            const fs::path exe = fs::path(o.build_dir) / "graders" / j.target;
            if (!fs::exists(exe)) {
                outcome = {ProcessOutcome::Kind::BuildFailed, 0, 0, "no program " + exe.string() + " (build it first)"};
                j.build = outcome;
            } else {
                out << "checking... " << std::flush;
                // A fresh, empty scratch folder is the lab's working folder; files for the student to
                // look at (plots) go to the log folder, named by --artifacts.
                const fs::path scratch = scratch_root / j.target;
                std::error_code ec;
                fs::remove_all(scratch, ec);
                fs::create_directories(scratch);
                std::vector<std::string> cmd = {exe.string(), "--seed", std::to_string(info.seed), "--report-fd",
                                                std::to_string(kReportFd), "--artifacts", log_dir.string()};
                if (o.quick) cmd.push_back("--quick");
                outcome = run_with_timeout(cmd, o.timeout_s, j.log.string(), run_s, scratch.string(), &records, key,
                                           secret_input(o, info.seed));
                outcome.timeout_s = o.timeout_s;
                // 77 and 78 are believed only from a program that had not started its checks: a lab's
                // code that ends the process with them must not turn a grade into "no GPU".
                if (outcome.kind == ProcessOutcome::Kind::Exited && records.empty() &&
                    (outcome.code == course::kExitNoGpu || outcome.code == course::kExitUnsupportedGpu)) {
                    std::cerr << "\n" << read_text_file(j.log.string()).value_or("");
                    return outcome.code;
                }
            }
        }
        LabResult r = merge_lab_report(*j.lab, j.tree_label, parse_json_lines(records), outcome, key);
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

}  // namespace grading
