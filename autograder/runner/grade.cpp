// grade — the autograder's runner.
//
// Builds each requested lab (student labs, the reference solutions, or one known-wrong variant),
// runs its checks in a separate process with a time limit, and reports a table, Gradescope's
// results.json and JUnit XML. A lab that does not compile, crashes or hangs costs only that lab.
//
//   grade                       grade the student's labs (what `make check` runs)
//   grade --lab 01              one lab
//   grade --tree solution       the reference solutions
//   grade --lab 01 --variant missing_barrier --expect wrong_result
//
// Exit status: 0 all passed (or, with --expect, every lab ended as expected); 1 otherwise;
// 2 bad arguments (checked before anything else); 77 no GPU (0 with --allow-no-gpu; with --expect, 77
// unless the expected class is decided by the build); 78 a GPU this build cannot use.
//
// Building a lab assembles the graded file from the course's skeleton and the submission's regions
// (assemble_lab) and audits its object (audit_lab); a refusal there is reported with its class. The
// lab's checks run in a scratch folder and send their records through a pipe the runner opened, with
// a key only the runner and the checks know (see results.hpp).
#include "process.hpp"
#include "reports.hpp"
#include "results.hpp"
#include "sanitizer.hpp"
#include "verdict.hpp"

#include "device_info.hpp"
#include "random.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <mutex>

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

// Builds one lab program. On failure, the outcome says why: a refusal found by assemble_lab or audit_lab
// (their verdicts), else the compiler's first error. The verdicts' notes (edits outside the regions, a
// changed header) are returned in @p notes either way.
ProcessOutcome build_lab(const std::string& build_dir, const std::string& target, int jobs, const fs::path& log,
                         double& seconds, std::vector<std::string>& notes) {
    const fs::path work = fs::path(build_dir) / "graded" / target;
    fs::remove(work / "regions.json");
    fs::remove(work / "audit.json");
    std::vector<std::string> cmd = {GRADER_CMAKE_COMMAND, "--build", build_dir, "--target", target};
    if (jobs <= 0) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    cmd.insert(cmd.end(), {"--parallel", std::to_string(jobs)});
    const ProcessOutcome b = run_with_timeout(cmd, 1800, log.string(), seconds);
    const auto regions = Verdict::read((work / "regions.json").string());
    const auto audit = Verdict::read((work / "audit.json").string());
    for (const auto* v : {&regions, &audit})
        if (*v) notes.insert(notes.end(), (*v)->notes.begin(), (*v)->notes.end());
    if (b.kind == ProcessOutcome::Kind::Exited && b.code == 0) return {};
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
}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Grades the CUDA shared-memory labs on this machine's GPU."};
    std::string tree = "student";
    std::string variant;
    std::vector<std::string> lab_ids;
    std::string build_dir = GRADER_BUILD_DIR;
    std::string rubric_path = GRADER_RUBRIC;
    bool no_build = false, quick = false, allow_no_gpu = false;
    std::string seed_text;
    double timeout_s = 60;
    std::string results_path, junit_path, expect;
    int jobs = 0;
    std::string sanitizer_mode = "auto", sanitizer_path = GRADER_COMPUTE_SANITIZER;
    double sanitizer_timeout_s = 180;
    app.add_option("--tree", tree, "what to grade: the student's labs or the reference solutions")
        ->check(CLI::IsMember({"student", "solution"}));
    app.add_option("--variant", variant,
                   "grade the known-wrong variant NAME (or the correct variant correct:NAME) of the one --lab given");
    app.add_option("--lab", lab_ids, "lab number(s) to grade, e.g. 01 (default: all)");
    app.add_option("--build-dir", build_dir, "the CMake build folder");
    app.add_option("--rubric", rubric_path, "rubric: a folder of NN-name/rubric.json, or one file");
    app.add_flag("--no-build", no_build, "do not (re)build the labs first");
    app.add_option("--seed", seed_text, "seed for the random inputs: a non-negative integer (default: fresh; printed)");
    app.add_option("--timeout", timeout_s, "seconds a lab's checks may take before it is stopped")
        ->check(CLI::PositiveNumber);
    app.add_option("--results", results_path, "Gradescope results.json path (default: <build>/grading/results.json)");
    app.add_option("--junit", junit_path, "JUnit XML path (default: <build>/grading/junit.xml)");
    app.add_option("--expect", expect,
                   "succeed only if every graded lab's headline result is this class (pass, wrong_result, ...)");
    app.add_option("-j,--jobs", jobs, "parallel build jobs (default: one per CPU core)")->check(CLI::NonNegativeNumber);
    app.add_option("--sanitizer", sanitizer_mode,
                   "the memory and race check under compute-sanitizer: auto (run it when the tool is found; when "
                   "not, it counts neither way), off (do not run it; it counts neither way), only (run nothing else)")
        ->check(CLI::IsMember({"auto", "off", "only"}));
    app.add_option("--compute-sanitizer", sanitizer_path, "the compute-sanitizer program (default: the CUDA Toolkit's, else PATH)");
    app.add_option("--sanitizer-timeout", sanitizer_timeout_s, "seconds one compute-sanitizer tool may take on a lab's workload")
        ->check(CLI::PositiveNumber);
    app.add_flag("--quick", quick, "fewer timing repetitions (smoke tests only; not for grades)");
    app.add_flag("--allow-no-gpu", allow_no_gpu,
                 "on a machine with no GPU, explain and exit 0 instead of 77 (the make targets use this)");
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
    std::optional<std::uint64_t> seed;
    if (!seed_text.empty() && !(seed = course::parse_seed(seed_text))) {
        std::cerr << "grade: --seed needs a non-negative integer (decimal, or hex with 0x), not '" << seed_text << "'\n";
        return 2;
    }
    if (!expect.empty() && !failure_from_string(expect)) {
        std::cerr << "grade: unknown class for --expect: " << expect << "\n";
        return 2;
    }
    // Relative paths are taken from where grade was started; lab programs run elsewhere.
    std::error_code ec;
    build_dir = fs::absolute(build_dir, ec).lexically_normal().string();
    if (!fs::is_directory(build_dir) || !fs::exists(fs::path(build_dir) / "CMakeCache.txt")) {
        std::cerr << "grade: --build-dir " << build_dir << " is not a CMake build folder (configure it first: "
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
    if (!variant.empty() && labs.size() != 1) {
        std::cerr << "grade: --variant needs exactly one --lab\n";
        return 2;
    }
    // A variant is a known-wrong one (NAME) or a correct one written differently from the reference
    // (correct:NAME).
    const bool correct_variant = variant.rfind("correct:", 0) == 0;
    const std::string variant_name = correct_variant ? variant.substr(8) : variant;
    const std::string kind = correct_variant ? "correct" : "wrong";
    const std::string tree_label = variant.empty() ? tree : kind + "/" + variant_name;
    const std::string suffix = variant.empty() ? tree : kind + "_" + variant_name;
    const fs::path out_dir = fs::path(build_dir) / "grading";
    fs::create_directories(out_dir);

    const course::GpuCheck gpu = course::check_gpu();
    if (gpu.status != course::GpuStatus::Ready) {
        std::cerr << "grade: cannot grade on this machine: " << gpu.message << "\n";
        // With --expect, only a class the build decides can be checked here; anything else needs the GPU.
        const bool build_decides = !expect.empty() && refused_at_build(*failure_from_string(expect));
        if (gpu.status != course::GpuStatus::NoGpu || !(allow_no_gpu || build_decides)) return gpu.exit_code();
        // Still worth something without a GPU: build each lab, which assembles and audits it too, and
        // report what does not build or is refused.
        int broken = 0;
        bool as_expected = true, decided = true;
        for (const RubricLab* lab : labs) {
            const std::string target = "lab" + lab->id + "_" + suffix;
            const fs::path log = out_dir / (target + ".log");
            fs::remove(log);
            double s = 0;
            std::vector<std::string> notes;
            const ProcessOutcome b = no_build ? ProcessOutcome{} : build_lab(build_dir, target, jobs, log, s, notes);
            const bool ok = b.kind != ProcessOutcome::Kind::BuildFailed;
            broken += !ok;
            std::cout << "Lab " << lab->id << " (" << lab->title << "): "
                      << (no_build ? "not built (--no-build)"
                          : ok     ? "compiles"
                          : b.build_class == Failure::DoesNotCompile
                              ? "DOES NOT COMPILE: " + b.detail
                              : "REFUSED (" + std::string(to_string(b.build_class)) + "): " + b.detail)
                      << "\n";
            for (const auto& n : notes) std::cout << "  note: " << n << "\n";
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
    if ((sanitizer_mode == "only" || sanitizer_class) && !find_compute_sanitizer(sanitizer_path)) {
        std::cerr << "grade: compute-sanitizer was not found (it comes with the CUDA Toolkit; or give --compute-sanitizer "
                     "PATH), so the memory and race check cannot run\n";
        return course::kExitNoGpu;
    }
    if (sanitizer_class && sanitizer_mode == "off") {
        std::cerr << "grade: --expect " << expect << " needs the memory and race check, not --sanitizer off\n";
        return 2;
    }
    RunInfo info;
    info.gpu = course::query_device().fingerprint();
    info.seed = seed ? *seed : course::seed_from_env_or_entropy();
    std::cout << "GPU:  " << info.gpu << "\nseed: " << info.seed << "  (grade --seed " << info.seed
              << " reproduces these inputs)\n"
              << std::flush;

    if (results_path.empty()) results_path = (out_dir / "results.json").string();
    if (junit_path.empty()) junit_path = (out_dir / "junit.xml").string();

    std::vector<LabResult> results;
    std::vector<ProcessOutcome> built;  // how each lab's build ended, for the sanitizer item
    for (const RubricLab* lab : labs) {
        const std::string target = "lab" + lab->id + "_" + suffix;
        const fs::path log = out_dir / (target + ".log");
        fs::remove(log);
        std::cout << "Lab " << lab->id << " (" << lab->title << ", " << tree_label << "): " << std::flush;

        double build_s = 0;
        ProcessOutcome outcome;
        std::vector<std::string> notes;
        if (!no_build) {
            std::cout << "building... " << std::flush;
            outcome = build_lab(build_dir, target, jobs, log, build_s, notes);
        }
        double run_s = 0;
        std::string records;
        const std::string key = channel_key();
        if (sanitizer_mode == "only") {
            // Only the runner's own item: the lab's checks are not run, and not reported.
            LabResult r{lab->id, lab->title, tree_label, {}, build_s, 0, log.string(), notes};
            built.push_back(outcome);
            info.build_seconds += build_s;
            std::cout << (outcome.kind == ProcessOutcome::Kind::BuildFailed ? "does not build" : "built") << "\n";
            results.push_back(std::move(r));
            continue;
        }
        if (outcome.kind != ProcessOutcome::Kind::BuildFailed) {
            const fs::path exe = fs::path(build_dir) / "graders" / target;
            if (!fs::exists(exe)) {
                outcome = {ProcessOutcome::Kind::BuildFailed, 0, 0, "no program " + exe.string() + " (build it first)"};
            } else {
                std::cout << "checking... " << std::flush;
                // A fresh, empty scratch folder is the lab's working folder; files for the student to
                // look at (plots) go to the grading folder, named by --artifacts.
                const fs::path scratch = out_dir / "scratch" / target;
                fs::remove_all(scratch, ec);
                fs::create_directories(scratch);
                std::vector<std::string> cmd = {exe.string(), "--seed", std::to_string(info.seed), "--report-fd",
                                                std::to_string(kReportFd), "--artifacts", out_dir.string()};
                if (quick) cmd.push_back("--quick");
                outcome = run_with_timeout(cmd, timeout_s, log.string(), run_s, scratch.string(), &records, key);
                outcome.timeout_s = timeout_s;
                // 77 and 78 are believed only from a program that had not started its checks: a lab's
                // code that ends the process with them must not turn a grade into "no GPU".
                if (outcome.kind == ProcessOutcome::Kind::Exited && records.empty() &&
                    (outcome.code == course::kExitNoGpu || outcome.code == course::kExitUnsupportedGpu)) {
                    std::cerr << "\n" << read_file(log);
                    return outcome.code;
                }
            }
        }
        LabResult r = merge_lab_report(*lab, tree_label, parse_json_lines(records), outcome, key);
        r.build_seconds = build_s;
        r.run_seconds = run_s;
        r.log_path = log.string();
        r.notes = notes;
        info.build_seconds += build_s;
        info.grade_seconds += run_s;
        std::cout << (r.passed() ? "pass" : "FAIL (" + title(r.primary_failure()) + ")") << "\n" << std::flush;
        built.push_back(outcome);
        results.push_back(std::move(r));
    }

    // The memory and race check: each lab's workload under compute-sanitizer's tools. Nothing is timed
    // any more, so the labs run side by side; within a lab the tools run in the rubric's order, stopping
    // at the first that finds something.
    const auto sanitizer = find_compute_sanitizer(sanitizer_path);
    struct SanitizerJob {
        std::size_t index;
        const RubricLab* lab;
        std::string target;
        std::vector<SanitizerRun> runs;
        std::string key;
    };
    std::vector<SanitizerJob> san_jobs;
    for (std::size_t i = 0; i < labs.size(); ++i) {
        const RubricLab* lab = labs[i];
        if (!lab->sanitizer) continue;
        const auto& item = *lab->sanitizer;
        if (built[i].kind == ProcessOutcome::Kind::BuildFailed) results[i].checks.push_back(sanitizer_not_built(item, built[i]));
        else if (sanitizer_mode == "off") results[i].checks.push_back(sanitizer_skipped(item, "--sanitizer off"));
        else if (!sanitizer)
            results[i].checks.push_back(sanitizer_skipped(
                item, "compute-sanitizer was not found (it comes with the CUDA Toolkit; or give --compute-sanitizer PATH)"));
        else san_jobs.push_back({i, lab, "lab" + lab->id + "_" + suffix, {}, channel_key()});
    }
    if (!san_jobs.empty()) {
        std::cout << "memory and race check (compute-sanitizer) of " << san_jobs.size() << " lab(s)... " << std::flush;
        const auto start = std::chrono::steady_clock::now();
        std::size_t next = 0;
        std::mutex m;
        auto worker = [&] {
            for (;;) {
                SanitizerJob* job = nullptr;
                {
                    std::lock_guard<std::mutex> lock(m);
                    if (next == san_jobs.size()) return;
                    job = &san_jobs[next++];
                }
                const fs::path exe = fs::path(build_dir) / "graders" / job->target;
                const fs::path scratch = out_dir / "scratch" / (job->target + "-sanitizer");
                std::error_code e;
                fs::remove_all(scratch, e);
                fs::create_directories(scratch, e);
                for (const auto& tool : job->lab->sanitizer->tools) {
                    SanitizerRun run;
                    run.tool = tool;
                    run.log_path = (out_dir / (job->target + "." + tool + ".log")).string();
                    const std::string program_log = (out_dir / (job->target + ".sanitizer-output.log")).string();
                    fs::remove(run.log_path, e);
                    const std::vector<std::string> program = {exe.string(), "--seed", std::to_string(info.seed),
                                                              "--report-fd", std::to_string(kReportFd), "--artifacts",
                                                              out_dir.string(), "--sanitizer-workload"};
                    run.outcome = run_with_timeout(sanitizer_command(*sanitizer, tool, run.log_path, program),
                                                   sanitizer_timeout_s, program_log, run.seconds, scratch.string(),
                                                   &run.records, job->key);
                    run.log_text = read_file(run.log_path);
                    const bool found = parse_sanitizer_log(run.log_text).found();
                    job->runs.push_back(std::move(run));
                    if (found) break;
                }
            }
        };
        const unsigned pool = std::min<unsigned>(static_cast<unsigned>(san_jobs.size()),
                                                 std::max(1u, std::thread::hardware_concurrency() / 2));
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < pool; ++t) threads.emplace_back(worker);
        for (auto& t : threads) t.join();
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        info.grade_seconds += secs;
        std::cout << std::fixed << std::setprecision(1) << secs << " s\n";
        std::cout.unsetf(std::ios::floatfield);
        for (auto& job : san_jobs) {
            CheckResult c = judge_sanitizer(*job.lab->sanitizer, job.runs, job.key, sanitizer_timeout_s);
            std::cout << "Lab " << job.lab->id << ": " << (c.passed() ? "clean" : "FAIL (" + title(c.cls) + "): " + c.message)
                      << "\n";
            results[job.index].run_seconds += c.seconds;
            results[job.index].checks.push_back(std::move(c));
        }
    }

    std::cout << "\n" << summary_table(results, info);
    std::ofstream(results_path) << gradescope_json(results, info).dump(2) << "\n";
    std::ofstream(junit_path) << junit_xml(results, info);
    std::cout << "reports: " << results_path << ", " << junit_path << "\n";

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
