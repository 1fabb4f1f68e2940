// grade — the autograder's runner.
//
// Builds each requested lab (student labs, the reference solutions, one known-wrong variant, any
// submission folder, or a whole roster of them), runs its checks in a separate process with a time
// limit, runs the memory and race check under compute-sanitizer, and reports a table, Gradescope's
// results.json and JUnit XML. A lab that does not compile, crashes or hangs costs only that lab.
//
//   grade                       grade the student's labs (what `make check` runs)
//   grade --lab 01              one lab
//   grade --tree solution       the reference solutions
//   grade --lab 01 --variant missing_barrier --expect wrong_result
//   grade --labs-dir DIR        one submission: a copy of labs/ (NN-name/<source>.cu) or just the sources
//   grade --roster DIR --gradebook OUT [--shard I/N] [--merge-only] [--regrade]
//                               a folder of submissions, one folder per student, into one gradebook
//
// Exit status: 0 all passed (or, with --expect, every lab ended as expected; with --roster, every student
// was graded); 1 otherwise; 2 bad arguments (checked before anything else); 77 no GPU (0 with
// --allow-no-gpu; with --expect, 77 unless the expected class is decided by the build); 78 a GPU this
// build cannot use.
//
// Building a lab assembles the graded file from the course's skeleton and the submission's regions
// (assemble_lab) and audits its object (audit_lab); a refusal there is reported with its class. The
// lab's checks run in a scratch folder and send their records through a pipe the runner opened, with
// a key only the runner and the checks know (see results.hpp). A submission from --labs-dir or --roster
// is copied (never changed) into one of the build's grading slots, whose programs are then built: no
// reconfiguring. Checks and sanitizer runs hold the GPU lock, so timings never overlap, also across
// several grade processes on one machine.
#include "process.hpp"
#include "report_html.hpp"
#include "reports.hpp"
#include "results.hpp"
#include "profile.hpp"
#include "resources.hpp"
#include "sanitizer.hpp"
#include "secret.hpp"
#include "verdict.hpp"

#include "device_info.hpp"
#include "random.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace grading;

namespace {
std::string read_file(const fs::path& p) { return read_text_file(p.string()).value_or(""); }

// A fresh key for one lab run's report channel: 128 bits from the system's entropy.
std::string channel_key() {
    std::random_device rd;
    std::ostringstream s;
    s << std::hex;
    for (int i = 0; i < 4; ++i) s << rd();
    return s.str();
}

bool refused_at_build(Failure f) {
    return f == Failure::DoesNotCompile || f == Failure::RefusedRegion || f == Failure::ForbiddenSymbol;
}

struct Options {
    std::string build_dir;
    int jobs = 0;
    bool no_build = false, quick = false;
    double timeout_s = 60;
    std::string sanitizer_mode = "auto";
    std::optional<std::string> sanitizer;
    double sanitizer_timeout_s = 180;
    std::string profile_mode = "auto";
    std::optional<std::string> ncu;
    double profile_timeout_s = 180;
    std::optional<std::string> secret;  // the instructor's secret (--secret-file); never given to a lab as it is
    std::string gpu_lock;
};

// What a lab program of a run with @p seed reads of the instructor's secret after the channel's key: a
// value keyed by the secret and the seed, so nothing a lab learns in one run carries to another.
std::string secret_input(const Options& o, std::uint64_t seed) {
    return o.secret ? secret_line(secret_for_run(*o.secret, seed)) : std::string();
}

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
    out.detail = first_error_line(read_file(log));
    if (out.detail.empty()) out.detail = "the build failed; see " + log.string();
    return out;
}

// One lab of one submission: which program grades it, and how its build went.
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
    fs::path log;
};

void build_jobs(const Options& o, std::vector<LabJob>& jobs, const fs::path& log_dir, int parallel, std::ostream* progress) {
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
}

// An exclusive lock on a file, held until destroyed (closing the file releases it): the GPU lock and
// the grading slots. Every grade process of this machine takes the same files.
class FileLock {
public:
    FileLock() = default;
    FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    FileLock& operator=(FileLock&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock() {
        if (fd_ >= 0) ::close(fd_);
    }
    /// Waits for the lock (when @p wait), else gives up at once; an empty FileLock when not taken.
    static FileLock take(const std::string& path, bool wait) {
        FileLock l;
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) return l;
        int r;
        while ((r = ::flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {}
        if (r == 0) l.fd_ = fd;
        else ::close(fd);
        return l;
    }
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

std::string default_gpu_lock() {
    std::string devices = "all";
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) devices = v;
    for (char& c : devices)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return (fs::temp_directory_path() / ("course-grader-gpu-" + devices + ".lock")).string();
}

// Runs the checks of built labs, one lab at a time; the caller holds the GPU lock. Returns a lab
// program's 77/78 when it said the GPU cannot be used before any check ran.
std::optional<int> run_checks(const Options& o, std::vector<LabJob>& jobs, const fs::path& log_dir, RunInfo& info,
                              std::vector<LabResult>& results, std::ostream& out) {
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
                    std::cerr << "\n" << read_file(j.log);
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

// The memory and race check of one lab: its workload under each of the rubric's tools. Nothing is timed
// while these run, so every tool of every lab (of one or several submissions) runs side by side.
struct SanitizerTask {
    const LabJob* job = nullptr;
    LabResult* result = nullptr;  // where the item's result goes
    fs::path log_dir;
    std::uint64_t seed = 0;
    std::string key;
    std::vector<SanitizerRun> runs;  // one per tool, in the rubric's order
};

// Adds each lab's sanitizer item to @p results directly when it cannot run (did not build, --sanitizer
// off, no compute-sanitizer), else a task to @p tasks. @p results must not grow while the tasks live.
void queue_sanitizer(const Options& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
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

// One run of a lab's workload under a tool (compute-sanitizer's, or ncu): its program's command line, and
// a fresh scratch folder and log paths, the old ones removed. @p tool names the files:
// <log_dir>/<lab log stem>.<tool>.log for the tool's report, .<tool>.output.log for what the program printed.
// The program is told the tool, and is given back what the lab's checks handed to the workloads (@p handed).
struct WorkloadRun {
    std::vector<std::string> program;  // the lab program with --seed, the channel and @p workload_flag
    fs::path scratch;                  // its working folder
    std::string log_path, output_path;
};
WorkloadRun prepare_workload(const Options& o, const LabJob& j, const fs::path& log_dir, std::uint64_t seed,
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

// Runs every tool of every task, at most one process per CPU core; the caller holds the GPU lock.
// Returns the wall time.
double run_sanitizer(const Options& o, std::vector<SanitizerTask>& tasks, std::ostream& out) {
    if (tasks.empty()) return 0;
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
            run.outcome = run_with_timeout(sanitizer_command(*o.sanitizer, run.tool, run.log_path, wr.program),
                                           o.sanitizer_timeout_s, wr.output_path, run.seconds, wr.scratch.string(),
                                           &run.records, t.key, secret_input(o, t.seed));
            run.log_text = read_file(run.log_path);
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

// The Nsight Compute items of each lab that has them (the shared-memory-use check, the bank-conflict
// check): its profile workload under Nsight Compute, once, one lab at a time (the profiler replays kernels
// and owns the counters); the caller holds the GPU lock. A lab's items earn their points only alongside
// working code, judged by the lab's own checks. Returns the wall time.
double run_profiles(const Options& o, const std::vector<LabJob>& jobs, std::vector<LabResult>& results,
                    const fs::path& log_dir, std::uint64_t seed, std::ostream& out) {
    if (o.sanitizer_mode == "only") return 0;  // only the memory and race check was asked for
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
        const WorkloadRun wr = prepare_workload(o, j, log_dir, seed, "ncu", "--profile-workload", results[i].workload_args);
        ProfileRun run;
        run.log_path = wr.log_path;
        const std::string key = channel_key();
        run.outcome = run_with_timeout(ncu_command(*o.ncu, run.log_path, wr.program), o.profile_timeout_s, wr.output_path,
                                       run.seconds, wr.scratch.string(), &run.records, key, secret_input(o, seed));
        run.log_text = read_file(run.log_path);
        std::vector<CheckResult> judged;
        if (j.lab->shared_use) {
            judged.push_back(judge_shared_use(*j.lab->shared_use, run, key, o.profile_timeout_s, "lab" + j.lab->id));
            require_working_code(judged.back(), lab_checks, "the shared-memory use was not measured");
        }
        if (j.lab->bank_conflicts) {
            judged.push_back(judge_bank_conflicts(*j.lab->bank_conflicts, run, key, o.profile_timeout_s, "lab" + j.lab->id));
            require_working_code(judged.back(), lab_checks, "no bank conflicts were measured");
        }
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

// --- Submissions from a folder: grading slots ------------------------------------------------------

// The course's source and headers of a lab: the one .cu and the .cuh files in labs/NN-name.
struct LabFiles {
    std::string source;
    std::vector<std::string> headers;
};
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

// A grading slot held by this process: its number and the lock on <build>/grading/slots/<n>.lock.
struct Slot {
    int number = 0;
    FileLock lock;
};

// Takes a free slot, waiting for one when all are busy (other grade processes may hold some).
Slot take_slot(const std::string& build_dir) {
    const fs::path dir = fs::path(build_dir) / "grading" / "slots";
    fs::create_directories(dir);
    for (;;) {
        for (int n = 1; n <= GRADER_SLOTS; ++n)
            if (FileLock l = FileLock::take((dir / (std::to_string(n) + ".lock")).string(), false); l.held())
                return {n, std::move(l)};
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

// Copies a submission's lab files into @p slot's folder (the submission is only read) and returns the
// jobs that grade them with the slot's programs.
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

// results.json, the JUnit XML, and report.html beside results.json. Lab 06's curve comes from the file its
// checks wrote in @p artifacts during this grading (written at @p since or later), never from an earlier one.
void write_reports(const std::vector<LabResult>& results, const RunInfo& info, const std::string& results_path,
                   const std::string& junit_path, const fs::path& artifacts, fs::file_time_type since) {
    std::ofstream(results_path) << gradescope_json(results, info).dump(2) << "\n";
    std::ofstream(junit_path) << junit_xml(results, info);
    std::vector<StridePoint> curve;
    const fs::path csv = artifacts / "lab06_strides.csv";
    std::error_code ec;
    const bool lab06 = std::any_of(results.begin(), results.end(), [](const LabResult& l) { return l.id == "06"; });
    if (lab06 && fs::exists(csv, ec) && fs::last_write_time(csv, ec) >= since && !ec) curve = read_stride_curve(csv.string());
    std::ofstream(fs::path(results_path).parent_path() / "report.html") << report_html(results, info, curve);
}

// Build-only results (no GPU): each lab "compiles" (its checks not run) or fails with its build class.
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

// What a build without a GPU can say of a lab that compiles: what its build checked and let through, what
// each kernel costs the GPU the build targets (resources.hpp), and what was not run, and why.
void dry_run_report(const Options& o, const LabJob& j, std::ostream& out) {
    for (const auto& c : j.checked) out << "  passed: " << c << "\n";
    const LabFiles files = course_lab_files(*j.lab);
    const fs::path graded = fs::path(o.build_dir) / "graded" / j.target / files.source;
    const int arch = std::atoi(GRADER_RESOURCE_ARCH);
    const ResourceReport r = kernel_resources(GRADER_NVCC, GRADER_NVCC_FLAGS, GRADER_CUDA_STANDARD, arch, graded.string(),
                                              {(fs::path(GRADER_COURSE_LABS) / j.lab->dir).string(), GRADER_COMMON_DIR},
                                              (fs::path(o.build_dir) / "grading" / "resources" / j.target).string());
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

// --- Rosters ------------------------------------------------------------------------------------------

std::vector<std::string> roster_students(const fs::path& roster) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(roster)) {
        const std::string n = e.path().filename().string();
        if (e.is_directory() && !n.empty() && n[0] != '.') names.push_back(n);
    }
    std::sort(names.begin(), names.end());
    return names;
}

// Writes OUT/gradebook.csv and .json from the complete students of @p students; returns those missing.
std::vector<std::string> write_gradebook(const fs::path& out, const std::vector<std::string>& students, const Rubric& rubric) {
    std::vector<nlohmann::json> rows;
    std::vector<std::string> missing;
    for (const auto& s : students) {
        const fs::path dir = out / "students" / s;
        const auto text = read_text_file((dir / "summary.json").string());
        if (!fs::exists(dir / ".complete") || !text) {
            missing.push_back(s);
            continue;
        }
        auto j = nlohmann::json::parse(*text, nullptr, false);
        if (j.is_discarded()) missing.push_back(s);
        else rows.push_back(std::move(j));
    }
    // Each process writes its own temporary files (shards of one roster may finish at the same moment),
    // and renames them into place: a reader never sees half a gradebook.
    const std::string tag = ".tmp." + std::to_string(::getpid());
    const fs::path tmp_csv = out / ("gradebook.csv" + tag), tmp_json = out / ("gradebook.json" + tag);
    std::ofstream(tmp_csv) << gradebook_csv(rows, rubric);
    std::ofstream(tmp_json) << nlohmann::json{{"students", rows}, {"missing", missing}}.dump(2) << "\n";
    fs::rename(tmp_csv, out / "gradebook.csv");
    fs::rename(tmp_json, out / "gradebook.json");
    return missing;
}

struct RosterOptions {
    fs::path roster, out;
    int shard = 0, shards = 1;
    bool merge_only = false, regrade = false, gpu = true;
};

// Grades a roster: builds run in parallel (one grading slot each), GPU work one student at a time under
// the GPU lock, in the order builds finish. Each student's reports go to OUT/students/<id>/, marked
// complete at the end, so an interrupted roster resumes where it stopped.
int grade_roster(const Options& o, const RosterOptions& ro, const Rubric& rubric, const std::vector<const RubricLab*>& labs,
                 RunInfo info) {
    const auto all = roster_students(ro.roster);
    if (all.empty()) {
        std::cerr << "grade: the roster " << ro.roster << " holds no student folder\n";
        return 2;
    }
    fs::create_directories(ro.out / "students");
    if (ro.merge_only) {
        const auto missing = write_gradebook(ro.out, all, rubric);
        std::cout << "gradebook: " << (ro.out / "gradebook.csv").string() << " (" << all.size() - missing.size() << " of "
                  << all.size() << " students)\n";
        for (const auto& m : missing) std::cout << "  not graded yet: " << m << "\n";
        return missing.empty() ? 0 : 1;
    }
    std::vector<std::string> todo;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (static_cast<int>(i % static_cast<std::size_t>(ro.shards)) != ro.shard) continue;
        const fs::path dir = ro.out / "students" / all[i];
        if (!ro.regrade && fs::exists(dir / ".complete")) continue;
        todo.push_back(all[i]);
    }
    const std::size_t total = todo.size();
    std::cout << "roster " << ro.roster.string() << ": " << all.size() << " students"
              << (ro.shards > 1 ? ", shard " + std::to_string(ro.shard) + "/" + std::to_string(ro.shards) : "") << ", "
              << total << " to grade\n"
              << std::flush;

    // Everything the slots' programs share is built once, before the builds run side by side.
    if (!o.no_build && total > 0) {
        std::vector<std::string> cmd = {GRADER_CMAKE_COMMAND, "--build", o.build_dir, "--parallel",
                                        std::to_string(std::max(1u, std::thread::hardware_concurrency())), "--target",
                                        "assemble_lab", "audit_lab", "grading_main", "course_common"};
        for (const RubricLab* l : labs) cmd.insert(cmd.end(), {"lab" + l->id + "_checks", "lab" + l->id + "_baselines"});
        double s = 0;
        const fs::path log = ro.out / "prepare.log";
        fs::remove(log);
        const ProcessOutcome b = run_with_timeout(cmd, 3600, log.string(), s);
        if (b.kind != ProcessOutcome::Kind::Exited || b.code != 0) {
            std::cerr << "grade: the grader itself does not build; see " << log << "\n";
            return 1;
        }
    }

    struct Built {
        std::string student;
        Slot slot;
        std::vector<LabJob> jobs;
        double build_s = 0;
    };
    std::mutex m;
    std::condition_variable cv;
    std::deque<Built> ready;
    std::size_t next = 0, builders_left = 0, done = 0, failed = 0;
    double gpu_total = 0, build_total = 0;
    const fs::file_time_type started = fs::file_time_type::clock::now();  // reports use artifacts from here on
    const auto start = std::chrono::steady_clock::now();
    const unsigned builders = std::max(1u, std::min<unsigned>(static_cast<unsigned>(GRADER_SLOTS) - 1u,
                                                              std::max(1u, std::thread::hardware_concurrency())));
    auto builder = [&] {
        // Builds are throughput work; the GPU's side (lab programs, compute-sanitizer, Nsight Compute) is
        // the one serial part of a roster, and its host work must not wait for a compiler. Linux keeps a
        // nice value a thread, and the compilers this thread starts inherit it.
        setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10);
        for (;;) {
            std::string student;
            {
                std::unique_lock<std::mutex> lock(m);
                // Never more built-and-waiting submissions than slots to spare for the next builds.
                cv.wait(lock, [&] { return next == total || ready.size() < builders; });
                if (next == total) break;
                student = todo[next++];
            }
            Built b{student, take_slot(o.build_dir), {}, 0};
            const fs::path dir = ro.out / "students" / student;
            std::error_code ec;
            fs::remove(dir / ".complete", ec);
            fs::create_directories(dir);
            const auto t0 = std::chrono::steady_clock::now();
            b.jobs = stage_submission(o.build_dir, ro.roster / student, b.slot, labs);
            build_jobs(o, b.jobs, dir, 1, nullptr);
            b.build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::lock_guard<std::mutex> lock(m);
            ready.push_back(std::move(b));
            cv.notify_all();
        }
        std::lock_guard<std::mutex> lock(m);
        --builders_left;
        cv.notify_all();
    };
    builders_left = builders;
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < builders; ++t) threads.emplace_back(builder);

    // The GPU's side: a batch of built submissions at a time (whatever is ready, up to kBatch): their
    // checks one lab after another, then the memory and race checks of the whole batch side by side.
    constexpr std::size_t kBatch = 4;
    int special = 0;
    for (;;) {
        std::vector<Built> batch;
        {
            std::unique_lock<std::mutex> lock(m);
            cv.wait(lock, [&] { return !ready.empty() || builders_left == 0; });
            if (ready.empty()) break;
            while (!ready.empty() && batch.size() < kBatch) {
                batch.push_back(std::move(ready.front()));
                ready.pop_front();
            }
            cv.notify_all();
        }
        std::vector<std::vector<LabResult>> results(batch.size());
        std::vector<RunInfo> infos(batch.size(), info);
        std::vector<std::ostringstream> logs(batch.size());
        std::vector<double> gpu_s(batch.size(), 0.0);
        if (ro.gpu) {
            const FileLock gpu = FileLock::take(o.gpu_lock, true);
            std::vector<SanitizerTask> tasks;
            for (std::size_t i = 0; i < batch.size() && special == 0; ++i) {
                const auto t0 = std::chrono::steady_clock::now();
                const fs::path dir = ro.out / "students" / batch[i].student;
                if (const auto code = run_checks(o, batch[i].jobs, dir, infos[i], results[i], logs[i])) special = *code;
                else queue_sanitizer(o, batch[i].jobs, results[i], dir, infos[i].seed, tasks);
                gpu_s[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            }
            if (special != 0) break;
            std::ostringstream san_log;
            const double san_s = run_sanitizer(o, tasks, san_log);
            for (std::size_t i = 0; i < batch.size(); ++i) {
                // The batch's sanitizer time, shared out evenly.
                gpu_s[i] += san_s / static_cast<double>(batch.size());
                infos[i].grade_seconds += san_s / static_cast<double>(batch.size());
                logs[i] << san_log.str();
                const double prof_s =
                    run_profiles(o, batch[i].jobs, results[i], ro.out / "students" / batch[i].student, infos[i].seed, logs[i]);
                gpu_s[i] += prof_s;
                infos[i].grade_seconds += prof_s;
            }
        } else {
            for (std::size_t i = 0; i < batch.size(); ++i) results[i] = build_only_results(batch[i].jobs);
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            Built& b = batch[i];
            const fs::path dir = ro.out / "students" / b.student;
            RunInfo& si = infos[i];
            si.build_seconds = b.build_s;
            std::ofstream(dir / "grade.log") << logs[i].str() << "\n" << summary_table(results[i], si);
            write_reports(results[i], si, (dir / "results.json").string(), (dir / "junit.xml").string(), dir, started);
            const nlohmann::json summary = student_summary(b.student, results[i], si, ro.gpu);
            std::ofstream(dir / "summary.json") << summary.dump(2) << "\n";
            std::ofstream(dir / ".complete") << "graded\n";
            b.slot.lock = FileLock();  // its programs are no longer needed: another build may use it
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::lock_guard<std::mutex> lock(m);
            ++done;
            gpu_total += gpu_s[i];
            build_total += b.build_s;
            const double left = elapsed / static_cast<double>(done) * static_cast<double>(total - done);
            std::cout << "[" << done << "/" << total << "] " << b.student << ": " << summary.value("status", "") << " "
                      << summary.value("points", 0.0) << "/" << summary.value("max_points", 0.0) << "  (build "
                      << num(b.build_s, 1) << " s, GPU " << num(gpu_s[i], 1) << " s; about "
                      << static_cast<int>(left) << " s left)\n"
                      << std::flush;
            cv.notify_all();
        }
    }
    {
        std::lock_guard<std::mutex> lock(m);
        next = total;  // on an early stop, builders take nothing more
        cv.notify_all();
    }
    for (auto& t : threads) t.join();
    if (special != 0) {
        std::cerr << "grade: the GPU cannot be used (exit " << special << "); the roster stopped\n";
        return special;
    }
    failed = total - done;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "graded " << done << " submission(s) in " << num(wall, 1) << " s wall"
              << (done ? " (" + num(wall / static_cast<double>(done), 1) + " s each; build " +
                             num(build_total / static_cast<double>(done), 1) + " s and GPU " +
                             num(gpu_total / static_cast<double>(done), 1) + " s a submission)"
                       : std::string())
              << "\n";
    const auto missing = write_gradebook(ro.out, all, rubric);
    std::cout << "gradebook: " << (ro.out / "gradebook.csv").string() << ", " << (ro.out / "gradebook.json").string()
              << " (" << all.size() - missing.size() << " of " << all.size() << " students)\n";
    return failed == 0 ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Grades the CUDA shared-memory labs on this machine's GPU."};
    Options o;
    o.build_dir = GRADER_BUILD_DIR;
    std::string tree = "student";
    std::string variant, labs_dir, roster_dir, gradebook_dir, shard_text;
    std::vector<std::string> lab_ids;
    std::string rubric_path = GRADER_RUBRIC;
    bool allow_no_gpu = false, merge_only = false, regrade = false;
    std::string seed_text;
    std::string results_path, junit_path, expect;
    std::string sanitizer_path = GRADER_COMPUTE_SANITIZER;
    std::string ncu_path = GRADER_NCU;
    std::string secret_path;
    o.gpu_lock = default_gpu_lock();
    app.add_option("--tree", tree, "what to grade: the student's labs or the reference solutions")
        ->check(CLI::IsMember({"student", "solution"}));
    app.add_option("--variant", variant,
                   "grade the known-wrong variant NAME (or the correct variant correct:NAME) of the one --lab given");
    app.add_option("--labs-dir", labs_dir,
                   "grade the submission in DIR (a copy of labs/, or just the lab sources), without reconfiguring");
    app.add_option("--roster", roster_dir, "grade every submission in DIR (one folder per student) into a gradebook");
    app.add_option("--gradebook", gradebook_dir, "with --roster: the folder for the gradebook and each student's reports");
    app.add_option("--shard", shard_text, "with --roster: grade only shard I of N (I/N, 0-based), e.g. 2/8");
    app.add_flag("--merge-only", merge_only, "with --roster: grade nothing; write the gradebook from the graded students");
    app.add_flag("--regrade", regrade, "with --roster: grade students already graded in the gradebook folder again");
    app.add_option("--lab", lab_ids, "lab number(s) to grade, e.g. 01 (default: all)");
    app.add_option("--build-dir", o.build_dir, "the CMake build folder");
    app.add_option("--rubric", rubric_path, "rubric: a folder of NN-name/rubric.json, or one file");
    app.add_flag("--no-build", o.no_build, "do not (re)build the labs first");
    app.add_option("--seed", seed_text, "seed for the random inputs: a non-negative integer (default: fresh; printed)");
    app.add_option("--timeout", o.timeout_s, "seconds a lab's checks may take before it is stopped")
        ->check(CLI::PositiveNumber);
    app.add_option("--results", results_path, "Gradescope results.json path (default: <build>/grading/results.json)");
    app.add_option("--junit", junit_path, "JUnit XML path (default: <build>/grading/junit.xml)");
    app.add_option("--expect", expect,
                   "succeed only if every graded lab's headline result is this class (pass, wrong_result, ...)");
    app.add_option("-j,--jobs", o.jobs, "parallel build jobs (default: one per CPU core)")->check(CLI::NonNegativeNumber);
    app.add_option("--sanitizer", o.sanitizer_mode,
                   "the memory and race check under compute-sanitizer: auto (run it when the tool is found; when "
                   "not, it counts neither way), off (do not run it; it counts neither way), only (run nothing else)")
        ->check(CLI::IsMember({"auto", "off", "only"}));
    app.add_option("--compute-sanitizer", sanitizer_path, "the compute-sanitizer program (default: the CUDA Toolkit's, else PATH)");
    app.add_option("--sanitizer-timeout", o.sanitizer_timeout_s, "seconds one compute-sanitizer tool may take on a lab's workload")
        ->check(CLI::PositiveNumber);
    app.add_option("--profile", o.profile_mode,
                   "the Nsight Compute checks (shared memory used as taught; bank conflicts): auto (run it when ncu is found and can read the "
                   "GPU's counters; when not, it counts neither way), off (do not run it), require (as auto, but exit "
                   "77 when it cannot run)")
        ->check(CLI::IsMember({"auto", "off", "require"}));
    app.add_option("--ncu", ncu_path, "the Nsight Compute command-line program (default: the CUDA Toolkit's, else PATH)");
    app.add_option("--profile-timeout", o.profile_timeout_s, "seconds Nsight Compute may take on a lab's workload")
        ->check(CLI::PositiveNumber);
    app.add_option("--secret-file", secret_path,
                   "the instructor's secret (a file kept out of the student release): the inputs then depend on it "
                   "as well as on the seed, and each lab adds hidden sizes drawn from both, new in every run");
    app.add_option("--gpu-lock", o.gpu_lock, "the lock file every grade process on this machine holds while it uses the GPU");
    app.add_flag("--quick", o.quick, "fewer timing repetitions (smoke tests only; not for grades)");
    app.add_flag("--allow-no-gpu", allow_no_gpu,
                 "on a machine with no GPU, explain and exit 0 instead of 77 (the make targets use this); with "
                 "--roster, build every submission and record what compiles");
    // Every mistake on the command line is exit 2 with a message, before anything is built or run.
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "grade: " << e.what() << "\nRun 'grade --help' for the options.\n";
        return 2;
    }
    // A student release (cmake/export_student.cmake) has no solutions/ beside autograder/: say so, build nothing.
    if (tree == "solution" && !fs::is_directory(fs::path(GRADER_RUBRIC).parent_path().parent_path() / "solutions")) {
        std::cerr << "grade: --tree solution grades the reference solutions, and this copy of the course has none "
                     "(a student release has no solutions/); grade your labs with --tree student (the default)\n";
        return 2;
    }
    std::optional<std::uint64_t> seed;
    if (!seed_text.empty() && !(seed = course::parse_seed(seed_text))) {
        std::cerr << "grade: --seed needs a non-negative integer (decimal, or hex with 0x), not '" << seed_text << "'\n";
        return 2;
    }
    if (!expect.empty() && !failure_from_string(expect)) {
        std::cerr << "grade: unknown class for --expect: " << expect << "\n";
        return 2;
    }
    auto usage = [](const std::string& m) {
        std::cerr << "grade: " << m << "\nRun 'grade --help' for the options.\n";
        return 2;
    };
    const int sources = !variant.empty() + !labs_dir.empty() + !roster_dir.empty();
    if (sources > 1) return usage("give at most one of --variant, --labs-dir and --roster");
    if (sources == 1 && app.count("--tree")) return usage("--tree cannot be combined with --variant, --labs-dir or --roster");
    RosterOptions ro;
    if (!roster_dir.empty()) {
        if (gradebook_dir.empty()) return usage("--roster needs --gradebook OUT, the folder for the gradebook");
        if (!expect.empty()) return usage("--expect does not apply to a roster");
        ro.roster = fs::absolute(roster_dir).lexically_normal();
        ro.out = fs::absolute(gradebook_dir).lexically_normal();
        if (!fs::is_directory(ro.roster)) return usage("--roster " + ro.roster.string() + " is not a folder");
        if (ro.out == ro.roster || ro.out.string().rfind(ro.roster.string() + "/", 0) == 0)
            return usage("--gradebook must be outside the roster (student work is never written to)");
        if (!shard_text.empty()) {
            const auto slash = shard_text.find('/');
            const auto i = course::parse_seed(shard_text.substr(0, slash));
            const auto n = slash == std::string::npos ? std::nullopt : course::parse_seed(shard_text.substr(slash + 1));
            if (!i || !n || *n == 0 || *i >= *n || *n > 100000)
                return usage("--shard needs I/N with 0 <= I < N, e.g. 0/4, not '" + shard_text + "'");
            ro.shard = static_cast<int>(*i);
            ro.shards = static_cast<int>(*n);
        }
        ro.merge_only = merge_only;
        ro.regrade = regrade;
    } else if (!gradebook_dir.empty() || !shard_text.empty() || merge_only || regrade) {
        return usage("--gradebook, --shard, --merge-only and --regrade go with --roster");
    }
    if (!labs_dir.empty()) {
        labs_dir = fs::absolute(labs_dir).lexically_normal().string();
        if (!fs::is_directory(labs_dir)) return usage("--labs-dir " + labs_dir + " is not a folder");
    }
    // Relative paths are taken from where grade was started; lab programs run elsewhere.
    std::error_code ec;
    o.build_dir = fs::absolute(o.build_dir, ec).lexically_normal().string();
    if (!fs::is_directory(o.build_dir) || !fs::exists(fs::path(o.build_dir) / "CMakeCache.txt")) {
        std::cerr << "grade: --build-dir " << o.build_dir << " is not a CMake build folder (configure it first: "
                  << "cmake -S . -B build)\n";
        return 2;
    }
    if (!results_path.empty()) results_path = fs::absolute(results_path).string();
    if (!junit_path.empty()) junit_path = fs::absolute(junit_path).string();
    Rubric rubric;
    try {
        rubric = load_rubric(fs::absolute(rubric_path).string());
    } catch (const std::exception& e) {
        std::cerr << "grade: cannot read the rubric " << rubric_path << ": " << e.what() << "\n";
        return 2;
    }
    std::vector<const RubricLab*> labs;
    if (lab_ids.empty())
        for (const auto& l : rubric.labs) labs.push_back(&l);
    for (auto id : lab_ids) {
        if (id.size() == 1) id = "0" + id;
        const RubricLab* l = rubric.find(id);
        if (!l) {
            std::cerr << "grade: no lab " << id << " in the rubric\n";
            return 2;
        }
        labs.push_back(l);
    }
    if (!variant.empty() && labs.size() != 1) return usage("--variant needs exactly one --lab");
    // A variant is a known-wrong one (NAME) or a correct one written differently from the reference
    // (correct:NAME).
    const bool correct_variant = variant.rfind("correct:", 0) == 0;
    const std::string variant_name = correct_variant ? variant.substr(8) : variant;
    const std::string kind = correct_variant ? "correct" : "wrong";
    const std::string tree_label = variant.empty() ? tree : kind + "/" + variant_name;
    const std::string suffix = variant.empty() ? tree : kind + "_" + variant_name;
    const fs::path out_dir = fs::path(o.build_dir) / "grading";
    fs::create_directories(out_dir);
    o.sanitizer = find_compute_sanitizer(sanitizer_path);
    o.ncu = find_tool(ncu_path, "ncu");
    if (!secret_path.empty()) {
        // Kept here: each lab program gets only a per-run value keyed by it (secret.hpp), never in argv or
        // the environment, and it is never printed.
        const auto text = read_text_file(secret_path);
        if (!text) return usage("--secret-file: cannot read " + secret_path);
        std::string secret = *text;
        while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r' || secret.back() == ' ')) secret.pop_back();
        if (secret.size() < 8) return usage("--secret-file: " + secret_path + " holds fewer than 8 characters of secret");
        o.secret = secret;
    }

    const course::GpuCheck gpu = course::check_gpu();
    const bool no_gpu_build_only = gpu.status == course::GpuStatus::NoGpu && allow_no_gpu;
    if (!roster_dir.empty() && (gpu.status == course::GpuStatus::Ready || no_gpu_build_only || merge_only)) {
        RunInfo info;
        info.gpu = gpu.status == course::GpuStatus::Ready ? course::query_device().fingerprint() : "none (built only)";
        info.seed = seed ? *seed : course::seed_from_env_or_entropy();
        info.secret = o.secret.has_value();
        if (gpu.status != course::GpuStatus::Ready && !merge_only)
            std::cerr << "grade: " << gpu.message << ": building every submission, running nothing\n";
        else if (!merge_only)
            std::cout << "GPU:  " << info.gpu << "\nseed: " << info.seed << "  (grade --seed " << info.seed
                      << (info.secret ? " --secret-file " + secret_path : "") << " reproduces these inputs)\n";
        ro.gpu = gpu.status == course::GpuStatus::Ready;
        return grade_roster(o, ro, rubric, labs, info);
    }

    if (!roster_dir.empty()) {
        std::cerr << "grade: cannot grade on this machine: " << gpu.message
                  << " (--allow-no-gpu builds the roster without grading it)\n";
        return gpu.exit_code();
    }
    // The labs to grade, and the programs that grade them.
    std::optional<Slot> slot;
    std::vector<LabJob> jobs;
    if (!labs_dir.empty()) {
        slot = take_slot(o.build_dir);
        jobs = stage_submission(o.build_dir, labs_dir, *slot, labs);
    } else {
        for (const RubricLab* lab : labs) {
            LabJob j;
            j.lab = lab;
            j.target = "lab" + lab->id + "_" + suffix;
            j.tree_label = tree_label;
            jobs.push_back(std::move(j));
        }
    }

    if (gpu.status != course::GpuStatus::Ready) {
        std::cerr << "grade: cannot grade on this machine: " << gpu.message << "\n";
        // With --expect, only a class the build decides can be checked here; anything else needs the GPU.
        const bool build_decides = !expect.empty() && refused_at_build(*failure_from_string(expect));
        if (gpu.status != course::GpuStatus::NoGpu || !(allow_no_gpu || build_decides)) return gpu.exit_code();
        // Still worth something without a GPU: build each lab, which assembles and audits it too, and
        // report what does not build or is refused.
        int broken = 0;
        bool as_expected = true, decided = true;
        build_jobs(o, jobs, out_dir, o.jobs, nullptr);
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
    // A test of the memory and race check itself cannot pass or fail without the tool: it is skipped.
    const bool sanitizer_class = expect == "memory_error" || expect == "race_condition";
    if ((o.sanitizer_mode == "only" || sanitizer_class) && !o.sanitizer) {
        std::cerr << "grade: compute-sanitizer was not found (it comes with the CUDA Toolkit; or give --compute-sanitizer "
                     "PATH), so the memory and race check cannot run\n";
        return course::kExitNoGpu;
    }
    if (sanitizer_class && o.sanitizer_mode == "off")
        return usage("--expect " + expect + " needs the memory and race check, not --sanitizer off");
    if (o.profile_mode == "require" && !o.ncu) {
        std::cerr << "grade: Nsight Compute (ncu) was not found (it comes with the CUDA Toolkit; or give --ncu PATH), so "
                     "its checks cannot run\n";
        return course::kExitNoGpu;
    }
    RunInfo info;
    info.gpu = course::query_device().fingerprint();
    info.seed = seed ? *seed : course::seed_from_env_or_entropy();
    info.secret = o.secret.has_value();
    std::cout << "GPU:  " << info.gpu << "\nseed: " << info.seed << "  (grade --seed " << info.seed
              << (info.secret ? " --secret-file " + secret_path : "") << " reproduces these inputs)\n"
              << std::flush;
    if (results_path.empty()) results_path = (out_dir / "results.json").string();
    if (junit_path.empty()) junit_path = (out_dir / "junit.xml").string();

    const fs::file_time_type started = fs::file_time_type::clock::now();  // reports use artifacts from here on
    build_jobs(o, jobs, out_dir, o.jobs, &std::cout);
    std::vector<LabResult> results;
    {
        const FileLock gpu = FileLock::take(o.gpu_lock, true);
        if (const auto code = run_checks(o, jobs, out_dir, info, results, std::cout)) return *code;
        std::vector<SanitizerTask> tasks;
        queue_sanitizer(o, jobs, results, out_dir, info.seed, tasks);
        info.grade_seconds += run_sanitizer(o, tasks, std::cout);
        info.grade_seconds += run_profiles(o, jobs, results, out_dir, info.seed, std::cout);
    }

    std::cout << "\n" << summary_table(results, info);
    write_reports(results, info, results_path, junit_path, out_dir, started);
    std::cout << "reports: " << results_path << ", " << junit_path << ", "
              << (fs::path(results_path).parent_path() / "report.html").string() << "\n";
    if (o.profile_mode == "require")
        for (std::size_t i = 0; i < results.size() && i < jobs.size(); ++i)
            for (const auto& c : results[i].checks)
                if (c.skipped && ((jobs[i].lab->bank_conflicts && c.name == jobs[i].lab->bank_conflicts->name) ||
                                  (jobs[i].lab->shared_use && c.name == jobs[i].lab->shared_use->name))) {
                    std::cerr << "grade: " << c.name << " could not run here (--profile require): " << c.message << "\n";
                    return course::kExitNoGpu;
                }

    if (!expect.empty()) {
        bool as_expected = true;
        for (const auto& r : results) {
            const std::string got(to_string(r.primary_failure()));
            if (got != expect) {
                std::cout << "expected lab " << r.id << " (" << r.tree << ") to end as " << expect << ", got " << got << "\n";
                as_expected = false;
            } else {
                std::cout << "lab " << r.id << " (" << r.tree << ") ended as expected: " << got << "\n";
            }
        }
        return as_expected ? 0 : 1;
    }
    for (const auto& r : results)
        if (!r.passed()) return 1;
    return 0;
}
