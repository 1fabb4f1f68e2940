// Grading a roster (see roster.hpp).
#include "roster.hpp"

#include "dry_run.hpp"
#include "lab_checks.hpp"
#include "locks.hpp"
#include "process.hpp"
#include "report_files.hpp"
#include "staging.hpp"
#include "tool_runs.hpp"
#include "verdict.hpp"

#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

namespace grading {

namespace {
std::vector<std::string> roster_students(const fs::path& roster) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(roster)) {
        const std::string n = e.path().filename().string();
        if (n.empty() || n[0] == '.') continue;
        // A student's folder is a folder of the roster's own: a link would grade what it points to (the
        // course's solutions, another student's work) under this student's name.
        if (e.is_symlink()) {
            std::cerr << "grade: " << e.path().string()
                      << " is a symbolic link: not graded (put the student's folder itself in the roster)\n";
            continue;
        }
        if (e.is_directory()) names.push_back(n);
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
    std::ofstream(tmp_json) << json_text({{"students", rows}, {"missing", missing}}) << "\n";
    fs::rename(tmp_csv, out / "gradebook.csv");
    fs::rename(tmp_json, out / "gradebook.json");
    return missing;
}
}  // namespace

int grade_roster(const GradingOptions& o, const RosterOptions& ro, const Rubric& rubric,
                 const std::vector<const RubricLab*>& labs, RunInfo info) {
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
    double gpu_total = 0, build_total = 0, alone_total = 0;
    const char* side = std::getenv("COURSE_GRADER_SIDE_BY_SIDE");
    const bool side_by_side = side && std::string(side) == "1";
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
            // Each step takes the GPU lock as it needs it (locks.hpp), as in grade: the batch's submissions
            // one after another. COURSE_GRADER_SIDE_BY_SIDE=1 checks them side by side instead, a thread each
            // (their exact checks share the GPU; each lab's measured checks have it alone only around what they
            // time): whether that grades a roster faster on one GPU is not measured yet (four ctest runs at once
            // on one H100 were slower than one after another).
            std::vector<SanitizerTask> tasks;
            std::vector<std::optional<int>> codes(batch.size());
            const auto check = [&](std::size_t i) {
                const auto t0 = std::chrono::steady_clock::now();
                codes[i] = run_checks(o, batch[i].jobs, ro.out / "students" / batch[i].student, infos[i], results[i],
                                      logs[i]);
                gpu_s[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            };
            if (side_by_side) {
                std::vector<std::thread> checkers;
                for (std::size_t i = 0; i < batch.size(); ++i) checkers.emplace_back(check, i);
                for (auto& t : checkers) t.join();
            } else {
                for (std::size_t i = 0; i < batch.size() && !(i > 0 && codes[i - 1]); ++i) check(i);
            }
            for (std::size_t i = 0; i < batch.size() && special == 0; ++i) {
                if (codes[i]) special = *codes[i];
                else queue_sanitizer(o, batch[i].jobs, results[i], ro.out / "students" / batch[i].student, infos[i].seed, tasks);
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
            for (std::size_t i = 0; i < batch.size(); ++i) fail_changed_graders(batch[i].jobs, results[i], logs[i]);
        } else {
            for (std::size_t i = 0; i < batch.size(); ++i) results[i] = build_only_results(batch[i].jobs);
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            Built& b = batch[i];
            const fs::path dir = ro.out / "students" / b.student;
            RunInfo& si = infos[i];
            si.build_seconds = b.build_s;
            // One student's reports failing to be written leaves that student ungraded (not .complete: missing
            // from the gradebook, graded again by the next run), never the rest of the class.
            nlohmann::json summary = {{"status", "not graded (its reports could not be written)"}};
            try {
                std::ofstream(dir / "grade.log") << logs[i].str() << "\n" << summary_table(results[i], si);
                write_reports(results[i], si, (dir / "results.json").string(), (dir / "junit.xml").string(), dir,
                              started);
                summary = student_summary(b.student, results[i], si, ro.gpu);
                std::ofstream(dir / "summary.json") << json_text(summary) << "\n";
                std::ofstream(dir / ".complete") << "graded\n";
            } catch (const std::exception& e) {
                std::lock_guard<std::mutex> lock(m);
                std::cerr << "grade: " << b.student << ": the reports could not be written (" << e.what()
                          << "); this student is left ungraded, the rest of the class goes on\n";
            }
            b.slot.lock = FileLock();  // its programs are no longer needed: another build may use it
            const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::lock_guard<std::mutex> lock(m);
            ++done;
            gpu_total += gpu_s[i];
            for (std::size_t k = 0; k < results[i].size() && k < labs.size(); ++k)
                alone_total += gpu_alone_seconds(results[i][k], *labs[k]);
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
                             num(gpu_total / static_cast<double>(done), 1) + " s a submission, " +
                             num(alone_total / static_cast<double>(done), 1) + " s of it with the GPU alone)"
                       : std::string())
              << "\n";
    const auto missing = write_gradebook(ro.out, all, rubric);
    std::cout << "gradebook: " << (ro.out / "gradebook.csv").string() << ", " << (ro.out / "gradebook.json").string()
              << " (" << all.size() - missing.size() << " of " << all.size() << " students)\n";
    return failed == 0 ? 0 : 1;
}

}  // namespace grading
