// The memory and race check and the Nsight Compute checks, run (see tool_runs.hpp).
#include "tool_runs.hpp"

#include "lab_checks.hpp"
#include "locks.hpp"
#include "process.hpp"
#include "profile.hpp"
#include "reports.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <thread>

namespace fs = std::filesystem;

namespace grading {

namespace {
// One run of a lab's workload under a tool (compute-sanitizer's, or ncu): its program's command line, and
// a fresh scratch folder and log paths, the old ones removed. @p tool names the files:
// <log_dir>/<lab log stem>.<tool>.log for the tool's report, .<tool>.output.log for what the program printed.
// The program is told the tool, and is given back what the lab's checks handed to the workloads (@p handed).
struct WorkloadRun {
    std::vector<std::string> program;  // the lab program with --seed, the channel and @p workload_flag
    fs::path scratch;                  // its working folder
    std::string log_path, output_path;
};
WorkloadRun prepare_workload(const GradingOptions& o, const LabJob& j, const fs::path& log_dir, std::uint64_t seed,
                             const std::string& tool, const std::string& workload_flag,
                             const std::map<std::string, std::string>& handed) {
    WorkloadRun w;
    const fs::path exe = fs::path(o.build_dir) / "graders" / j.target;
    w.program = {exe.string(),          "--seed",    std::to_string(seed), "--report-fd",
                 std::to_string(kReportFd), "--artifacts", log_dir.string(), workload_flag, "--workload-tool", tool};
    for (const auto& [name, value] : handed) w.program.insert(w.program.end(), {"--workload-arg", name + "=" + value});
    w.scratch = fs::path(o.build_dir) / "grading" / "scratch" / (j.target + "-" + tool);
    const std::string stem = (log_dir / (j.log_stem + "." + tool)).string();
    w.log_path = stem + ".log";
    w.output_path = stem + ".output.log";
    std::error_code e;
    fs::remove_all(w.scratch, e);
    fs::create_directories(w.scratch, e);
    fs::remove(w.log_path, e);
    fs::remove(w.output_path, e);
    return w;
}
}  // namespace

void queue_sanitizer(const GradingOptions& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
                     const fs::path& log_dir, std::uint64_t seed, std::vector<SanitizerTask>& tasks) {
    for (std::size_t i = 0; i < jobs.size() && i < results.size(); ++i) {
        const RubricLab* lab = jobs[i].lab;
        if (!lab->sanitizer) continue;
        const auto& item = *lab->sanitizer;
        if (jobs[i].build.kind == ProcessOutcome::Kind::BuildFailed)
            results[i].checks.push_back(sanitizer_not_built(item, jobs[i].build));
        else if (o.sanitizer_mode == "off") results[i].checks.push_back(sanitizer_skipped(item, "--sanitizer off"));
        else if (!o.sanitizer)
            results[i].checks.push_back(sanitizer_skipped(
                item, "compute-sanitizer was not found (it comes with the CUDA Toolkit; or give --compute-sanitizer PATH)"));
        else {
            SanitizerTask t{&jobs[i], &results[i], log_dir, seed, channel_key(), {}};
            for (const auto& tool : item.tools) t.runs.push_back({tool, {}, "", "", "", 0});
            tasks.push_back(std::move(t));
        }
    }
}

double run_sanitizer(const GradingOptions& o, std::vector<SanitizerTask>& tasks, std::ostream& out) {
    if (tasks.empty()) return 0;
    const FileLock gpu = take_gpu(o.gpu_lock, GpuUse::Shared);
    std::vector<std::pair<SanitizerTask*, SanitizerRun*>> work;
    for (auto& t : tasks)
        for (auto& r : t.runs) work.push_back({&t, &r});
    // Longest first: racecheck runs take several times as long as the others (seconds against a few), so
    // they start first and the short runs fill the cores around them; the batch ends soonest that way.
    std::stable_sort(work.begin(), work.end(), [](const auto& a, const auto& b) {
        return (a.second->tool == "racecheck") > (b.second->tool == "racecheck");
    });
    out << "memory and race check (compute-sanitizer) of " << tasks.size() << " lab(s), " << work.size() << " run(s)... "
        << std::flush;
    const auto start = std::chrono::steady_clock::now();
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
        for (std::size_t w; (w = next++) < work.size();) {
            SanitizerTask& t = *work[w].first;
            SanitizerRun& run = *work[w].second;
            const WorkloadRun wr = prepare_workload(o, *t.job, t.log_dir, t.seed, run.tool, "--sanitizer-workload",
                                                    t.result->workload_args);
            run.log_path = wr.log_path;
            if (!files_changed(t.job->grader_files).empty()) continue;  // not run (fail_changed_graders says why)
            run.outcome = run_with_timeout(sanitizer_command(*o.sanitizer, run.tool, run.log_path, wr.program),
                                           o.sanitizer_timeout_s, wr.output_path, run.seconds, wr.scratch.string(),
                                           &run.records, t.key, secret_input(o, t.seed));
            run.log_text = read_text_file(run.log_path).value_or("");
        }
    };
    const unsigned pool = std::min<unsigned>(static_cast<unsigned>(work.size()), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < pool; ++i) threads.emplace_back(worker);
    for (auto& th : threads) th.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << num(secs, 1) << " s\n";
    for (auto& t : tasks) {
        CheckResult c = judge_sanitizer(*t.job->lab->sanitizer, t.runs, t.key, o.sanitizer_timeout_s);
        require_working_code(c, t.result->checks);
        out << "Lab " << t.job->lab->id << ": "
            << (c.passed() ? "clean" : c.cls == Failure::NotRun ? "clean, no point (the lab's results are wrong)"
                                                                 : "FAIL (" + title(c.cls) + "): " + c.message)
            << "\n";
        t.result->run_seconds += c.seconds;
        t.result->checks.push_back(std::move(c));
    }
    return secs;
}

double run_profiles(const GradingOptions& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
                    const fs::path& log_dir, std::uint64_t seed, std::ostream& out) {
    if (o.sanitizer_mode == "only") return 0;  // only the memory and race check was asked for
    // Measured work (locks.hpp), the GPU taken before the first run and only if one runs.
    // COURSE_GRADER_NSIGHT_SHARED=1 lets it share the GPU with other gradings' memory checks instead, only
    // for .ci/gpu-nsight-beside.sh, which measures what that costs.
    const char* shared = std::getenv("COURSE_GRADER_NSIGHT_SHARED");
    const GpuUse use = shared && std::string(shared) == "1" ? GpuUse::Shared : GpuUse::Measured;
    FileLock gpu;
    double total = 0;
    for (std::size_t i = 0; i < jobs.size() && i < results.size(); ++i) {
        const LabJob& j = jobs[i];
        if (!j.lab->bank_conflicts && !j.lab->shared_use) continue;
        // Each item's result from one way of ending (not built, not run, or judged).
        const auto each = [&](const auto& make_use, const auto& make_bank) {
            if (j.lab->shared_use) results[i].checks.push_back(make_use(*j.lab->shared_use));
            if (j.lab->bank_conflicts) results[i].checks.push_back(make_bank(*j.lab->bank_conflicts));
        };
        if (j.build.kind == ProcessOutcome::Kind::BuildFailed) {
            each([&](const RubricSharedUse& item) { return shared_use_not_built(item, j.build); },
                 [&](const RubricBankConflicts& item) { return bank_conflicts_not_built(item, j.build); });
            continue;
        }
        if (o.profile_mode == "off" || !o.ncu) {
            const std::string why = o.profile_mode == "off" ? "--profile off"
                                                            : "Nsight Compute (ncu) was not found (it comes with the CUDA "
                                                              "Toolkit; or give --ncu PATH)";
            each([&](const RubricSharedUse& item) { return shared_use_skipped(item, why); },
                 [&](const RubricBankConflicts& item) { return bank_conflicts_skipped(item, why); });
            continue;
        }
        std::vector<CheckResult> lab_checks;  // the lab program's own checks, not the runner's items
        for (const auto& other : results[i].checks)
            if (!j.lab->sanitizer || other.name != j.lab->sanitizer->name) lab_checks.push_back(other);
        if (const CheckResult* broken = first_broken_check(lab_checks)) {
            // The items could earn nothing (require_working_code): the profile is not taken, which saves
            // its run, and each item says why, as require_working_code would.
            const auto none = [&](const auto& item) {
                CheckResult c = runner_item(item.name, item.points, item.visibility);
                earns_nothing_without_working_code(c, *broken, "not measured");
                return c;
            };
            each(none, none);
            out << "Lab " << j.lab->id << ": Nsight Compute checks not run (the lab's results are wrong)\n";
            continue;
        }
        out << "Lab " << j.lab->id << ": shared-memory checks (Nsight Compute)... " << std::flush;
        if (!gpu.held()) gpu = take_gpu(o.gpu_lock, use);
        ProfileRun run;
        std::vector<CheckResult> judged;
        double measuring = 0;  // seconds of every run, a repeated one's included
        // Nsight Compute's counters have read the grader's probe as empty right after the lab's checks
        // stopped sampling the GPU (seen on an H100, now and then): a run whose counters could not be read
        // (the probe misread, no permission problem named) is measured once more, after a pause.
        for (int attempt = 0; attempt < 2; ++attempt) {
            const WorkloadRun wr = prepare_workload(o, j, log_dir, seed, "ncu", "--profile-workload", results[i].workload_args);
            run = ProfileRun{};
            run.log_path = wr.log_path;
            const std::string key = channel_key();
            if (!files_changed(j.grader_files).empty()) break;  // not run (fail_changed_graders says why)
            {
                const FileLock one_profiler = FileLock::take(kNsightComputeLock, true);
                run.outcome = run_with_timeout(ncu_command(*o.ncu, run.log_path, wr.program), o.profile_timeout_s,
                                               wr.output_path, run.seconds, wr.scratch.string(), &run.records, key,
                                               secret_input(o, seed));
            }
            measuring += run.seconds;
            run.log_text = read_text_file(run.log_path).value_or("");
            judged.clear();
            if (j.lab->shared_use) {
                judged.push_back(judge_shared_use(*j.lab->shared_use, run, key, o.profile_timeout_s, "lab" + j.lab->id));
                require_working_code(judged.back(), lab_checks, "the shared-memory use was not measured");
            }
            if (j.lab->bank_conflicts) {
                judged.push_back(judge_bank_conflicts(*j.lab->bank_conflicts, run, key, o.profile_timeout_s, "lab" + j.lab->id));
                require_working_code(judged.back(), lab_checks, "no bank conflicts were measured");
            }
            const bool unread = std::any_of(judged.begin(), judged.end(), [](const CheckResult& c) { return c.skipped; });
            if (attempt > 0 || !unread || run.log_text.find("ERR_NVGPUCTRPERM") != std::string::npos) break;
            out << "(the counters could not be read; measuring again) " << std::flush;
            std::this_thread::sleep_for(std::chrono::seconds(2));
        }
        run.seconds = measuring;
        for (CheckResult& c : judged) c.seconds = measuring;  // counted once below, in the first item
        std::string said;
        for (const CheckResult& c : judged)
            said += std::string(said.empty() ? "" : "; ") +
                    (c.skipped    ? "not run: " + c.message
                     : c.passed() ? c.name + ": pass"
                     : c.cls == Failure::NotRun ? c.name + ": pass, no point (the lab's results are wrong)"
                                                : c.name + ": FAIL (" + title(c.cls) + "): " + c.message);
        out << said << " [" << num(run.seconds, 1) << " s]\n";
        total += run.seconds;
        for (std::size_t k = 0; k < judged.size(); ++k) {
            // One run: its time is counted once, in the first item.
            if (k > 0) judged[k].seconds = 0;
            results[i].run_seconds += judged[k].seconds;
            results[i].checks.push_back(std::move(judged[k]));
        }
    }
    return total;
}

}  // namespace grading
