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
// 2 bad arguments; 77 no GPU (0 with --allow-no-gpu); 78 a GPU this build cannot use.
#include "process.hpp"
#include "reports.hpp"
#include "results.hpp"

#include "device_info.hpp"
#include "random.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using namespace grading;

namespace {
std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
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
    app.add_option("--tree", tree, "what to grade: the student's labs or the reference solutions")
        ->check(CLI::IsMember({"student", "solution"}));
    app.add_option("--variant", variant, "grade the known-wrong variant NAME of the one --lab given");
    app.add_option("--lab", lab_ids, "lab number(s) to grade, e.g. 01 (default: all)");
    app.add_option("--build-dir", build_dir, "the CMake build folder");
    app.add_option("--rubric", rubric_path, "rubric: a folder of NN-name/rubric.json, or one file");
    app.add_flag("--no-build", no_build, "do not (re)build the labs first");
    app.add_option("--seed", seed_text, "seed for the random inputs (default: fresh; printed)");
    app.add_option("--timeout", timeout_s, "seconds a lab's checks may take before it is stopped")
        ->check(CLI::PositiveNumber);
    app.add_option("--results", results_path, "Gradescope results.json path (default: <build>/grading/results.json)");
    app.add_option("--junit", junit_path, "JUnit XML path (default: <build>/grading/junit.xml)");
    app.add_option("--expect", expect,
                   "succeed only if every graded lab's headline result is this class (pass, wrong_result, ...)");
    app.add_option("-j,--jobs", jobs, "parallel build jobs");
    app.add_flag("--quick", quick, "fewer timing repetitions (smoke tests only; not for grades)");
    app.add_flag("--allow-no-gpu", allow_no_gpu,
                 "on a machine with no GPU, explain and exit 0 instead of 77 (the make targets use this)");
    CLI11_PARSE(app, argc, argv);

    if (!expect.empty() && !failure_from_string(expect)) {
        std::cerr << "grade: unknown class for --expect: " << expect << "\n";
        return 2;
    }
    Rubric rubric;
    try {
        rubric = load_rubric(rubric_path);
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

    const course::GpuCheck gpu = course::check_gpu();
    if (gpu.status != course::GpuStatus::Ready) {
        std::cerr << "grade: cannot grade on this machine: " << gpu.message << "\n";
        if (gpu.status != course::GpuStatus::NoGpu || !allow_no_gpu) return gpu.exit_code();
        // Still worth something without a GPU: compile each lab and report what does not build.
        int broken = 0;
        for (const RubricLab* lab : labs) {
            const std::string target = "lab" + lab->id + "_" + (variant.empty() ? tree : "wrong_" + variant);
            const fs::path log = fs::path(build_dir) / "grading" / (target + ".log");
            fs::create_directories(log.parent_path());
            fs::remove(log);
            double s = 0;
            const ProcessOutcome b = no_build ? ProcessOutcome{} :
                run_with_timeout({GRADER_CMAKE_COMMAND, "--build", build_dir, "--target", target}, 1800, log.string(), s);
            const bool ok = b.kind == ProcessOutcome::Kind::Exited && b.code == 0;
            broken += !ok;
            std::cout << "Lab " << lab->id << " (" << lab->title << "): "
                      << (no_build ? "not built (--no-build)" : ok ? "compiles" : "DOES NOT COMPILE: " + first_error_line(read_file(log)))
                      << "\n";
        }
        std::cerr << "grade: nothing was graded (no GPU); run it again on a machine with an NVIDIA GPU.\n";
        return broken ? 1 : 0;
    }
    RunInfo info;
    info.gpu = course::query_device().fingerprint();
    info.seed = seed_text.empty() ? course::seed_from_env_or_entropy() : std::stoull(seed_text, nullptr, 0);
    std::cout << "GPU:  " << info.gpu << "\nseed: " << info.seed << "  (grade --seed " << info.seed
              << " reproduces these inputs)\n"
              << std::flush;

    const fs::path out_dir = fs::path(build_dir) / "grading";
    fs::create_directories(out_dir);
    if (results_path.empty()) results_path = (out_dir / "results.json").string();
    if (junit_path.empty()) junit_path = (out_dir / "junit.xml").string();
    const std::string tree_label = variant.empty() ? tree : "wrong/" + variant;
    const std::string suffix = variant.empty() ? tree : "wrong_" + variant;

    std::vector<LabResult> results;
    for (const RubricLab* lab : labs) {
        const std::string target = "lab" + lab->id + "_" + suffix;
        const fs::path log = out_dir / (target + ".log");
        const fs::path report = out_dir / (target + ".jsonl");
        fs::remove(log);
        fs::remove(report);
        std::cout << "Lab " << lab->id << " (" << lab->title << ", " << tree_label << "): " << std::flush;

        double build_s = 0;
        ProcessOutcome outcome;
        if (!no_build) {
            std::cout << "building... " << std::flush;
            std::vector<std::string> cmd = {GRADER_CMAKE_COMMAND, "--build", build_dir, "--target", target};
            if (jobs > 0) cmd.insert(cmd.end(), {"--parallel", std::to_string(jobs)});
            const ProcessOutcome b = run_with_timeout(cmd, 1800, log.string(), build_s);
            if (b.kind != ProcessOutcome::Kind::Exited || b.code != 0) {
                outcome = {ProcessOutcome::Kind::BuildFailed, b.code, 0, first_error_line(read_file(log))};
                if (outcome.detail.empty()) outcome.detail = "the build failed; see " + log.string();
            }
        }
        double run_s = 0;
        if (outcome.kind != ProcessOutcome::Kind::BuildFailed) {
            const fs::path exe = fs::path(build_dir) / "graders" / target;
            if (!fs::exists(exe)) {
                outcome = {ProcessOutcome::Kind::BuildFailed, 0, 0, "no program " + exe.string() + " (build it first)"};
            } else {
                std::cout << "checking... " << std::flush;
                std::vector<std::string> cmd = {exe.string(), "--seed", std::to_string(info.seed), "--report",
                                                report.string()};
                if (quick) cmd.push_back("--quick");
                // Lab programs run inside build/grading, where any files they write (plots, CSV) belong.
                outcome = run_with_timeout(cmd, timeout_s, log.string(), run_s, out_dir.string());
                outcome.timeout_s = timeout_s;
                if (outcome.kind == ProcessOutcome::Kind::Exited &&
                    (outcome.code == course::kExitNoGpu || outcome.code == course::kExitUnsupportedGpu)) {
                    std::cerr << "\n" << read_file(log);
                    return outcome.code;
                }
            }
        }
        LabResult r = merge_lab_report(*lab, tree_label, parse_json_lines(read_file(report)), outcome);
        r.build_seconds = build_s;
        r.run_seconds = run_s;
        r.log_path = log.string();
        info.build_seconds += build_s;
        info.grade_seconds += run_s;
        std::cout << (r.passed() ? "pass" : "FAIL (" + title(r.primary_failure()) + ")") << "\n" << std::flush;
        results.push_back(std::move(r));
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
