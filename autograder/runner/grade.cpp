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
//
// This file is the command line. The grading library it calls (grader_runner), one concern a file:
//   grading_options.hpp  how a run grades (what the options set)
//   lab_build.hpp        building the lab programs, and what each build says
//   staging.hpp          submissions from a folder, copied into a grading slot
//   locks.hpp            the GPU lock and the grading slots
//   lab_checks.hpp       running a built lab's checks
//   tool_runs.hpp        the memory and race check (compute-sanitizer) and the Nsight Compute checks
//   dry_run.hpp          grading without a GPU: build, audit, kernel resources
//   report_files.hpp     results.json, junit.xml and report.html
//   roster.hpp           a roster of submissions into one gradebook
#include "dry_run.hpp"
#include "lab_build.hpp"
#include "lab_checks.hpp"
#include "locks.hpp"
#include "process.hpp"
#include "report_files.hpp"
#include "report_html.hpp"
#include "reports.hpp"
#include "results.hpp"
#include "roster.hpp"
#include "sanitizer.hpp"
#include "staging.hpp"
#include "tool_runs.hpp"

#include "device_info.hpp"
#include "random.hpp"

#include <CLI/CLI.hpp>
#include <sys/prctl.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace grading;

int main(int argc, char** argv) {
    // Not dumpable: code a grading runs (the student's, under this user) may not open this process's
    // descriptors through /proc (the check programs' report channels), nor read or trace its memory.
    ::prctl(PR_SET_DUMPABLE, 0);
    // A subreaper: whatever a grading's process leaves when the keeper above it is killed comes here, and is
    // ended after its run (process.hpp). Every process grade starts, it starts through run_with_timeout.
    mark_runner_subreaper();
    CLI::App app{"Grades the CUDA shared-memory labs on this machine's GPU."};
    GradingOptions o;
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
    app.add_option("--timeout", o.timeout_s,
                   "seconds each of a lab's two check processes (its exact checks, then its measured ones) may take "
                   "before it is stopped (default 60; a lab whose measured checks take longer, such as Lab 06's "
                   "curves, gets its rubric's longer limit for them unless this is given)")
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
        o.timeout_given = app.count("--timeout") > 0;
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
    for (const std::string* p : {&secret_path, &roster_dir, &gradebook_dir})
        if (!p->empty()) o.protect.push_back(fs::absolute(*p, ec).lexically_normal().string());
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
        // report what does not build or is refused; report.html says the same (where a graded run leaves it),
        // and that nothing was graded. No results.json: there is no grade to give.
        const int code = dry_run(o, jobs, out_dir, expect);
        if (expect.empty()) {
            RunInfo none;  // no GPU: the page says built and audited only
            for (const auto& j : jobs) none.build_seconds += j.build_s;
            const fs::path page = (results_path.empty() ? out_dir : fs::path(results_path).parent_path()) / "report.html";
            std::ofstream(page) << report_html(build_only_results(jobs), none, {});
            std::cout << "report: " << page.string() << "\n";
        }
        return code;
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
    // Each step takes the GPU lock as it needs it (locks.hpp): the checks and Nsight Compute alone, the
    // memory and race check shared with other gradings' memory checks.
    if (const auto code = run_checks(o, jobs, out_dir, info, results, std::cout)) return *code;
    std::vector<SanitizerTask> tasks;
    queue_sanitizer(o, jobs, results, out_dir, info.seed, tasks);
    info.grade_seconds += run_sanitizer(o, tasks, std::cout);
    info.grade_seconds += run_profiles(o, jobs, results, out_dir, info.seed, std::cout);
    fail_changed_graders(jobs, results, std::cout);

    std::cout << "\n" << summary_table(results, info);
    {
        std::vector<const RubricLab*> graded;
        for (const auto& j : jobs) graded.push_back(j.lab);
        std::cout << "\n" << time_breakdown(results, graded, true);
    }
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
