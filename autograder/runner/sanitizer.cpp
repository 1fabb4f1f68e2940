// The runner's memory and race check (see sanitizer.hpp).
#include "sanitizer.hpp"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace grading {

SanitizerFindings parse_sanitizer_log(const std::string& text) {
    SanitizerFindings f;
    static const std::regex error_summary(R"(ERROR SUMMARY:\s*(\d+)\s+error)");
    static const std::regex race_summary(R"(RACECHECK SUMMARY:\s*(\d+)\s+hazards? displayed\s*\((\d+)\s+errors?,\s*(\d+)\s+warnings?\))");
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, error_summary)) {
            f.summary = true;
            f.errors = std::max(f.errors, std::stoi(m[1]));
            continue;
        }
        if (std::regex_search(line, m, race_summary)) {
            f.summary = true;
            f.errors = std::max(f.errors, std::stoi(m[2]));
            f.warnings = std::max(f.warnings, std::stoi(m[3]));
            continue;
        }
        // A report's first line: "========= Invalid __global__ read of size 4 bytes", "========= Error: Race
        // reported between ...", "========= WARNING: Race reported ...", "========= Barrier error ...".
        const auto p = line.find("========= ");
        if (p == std::string::npos || f.first.size() >= 3) continue;
        std::string body = line.substr(p + 10);
        if (body.empty() || body[0] == ' ' || body.rfind("COMPUTE-SANITIZER", 0) == 0 || body.rfind("Program hit", 0) == 0 ||
            body.rfind("Saved host backtrace", 0) == 0 || body.rfind("Device Frame", 0) == 0)
            continue;
        if (body.find("Invalid") != std::string::npos || body.find("Race reported") != std::string::npos ||
            body.find("arrier") != std::string::npos || body.find("Misaligned") != std::string::npos ||
            body.find("Uninitialized") != std::string::npos || body.find("rror") != std::string::npos)
            f.first.push_back(body.size() > 300 ? body.substr(0, 300) + "..." : body);
    }
    return f;
}

std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool,
                                           const std::string& log_file, const std::vector<std::string>& program) {
    std::vector<std::string> cmd = {sanitizer,        "--tool",        tool,
                                    "--log-file",     log_file,        "--error-exitcode",
                                    std::to_string(kSanitizerErrorExit), "--print-limit", "20",
                                    // the lab's code runs in a child of the check program (its launch host)
                                    "--target-processes", "all"};
    if (tool == "memcheck") cmd.insert(cmd.end(), {"--leak-check", "no"});
    cmd.insert(cmd.end(), program.begin(), program.end());
    return cmd;
}

std::string workload_records_problem(const std::vector<nlohmann::json>& lines, const std::string& key,
                                     const std::string& workload, nlohmann::json& end) {
    const char* expected[] = {"start", "end", "done"};
    if (lines.size() != 3) return "the workload sent " + std::to_string(lines.size()) + " record(s) instead of 3";
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& j = lines[i];
        if (!j.is_object() || j.value("key", "") != key) return "a record does not carry this run's key";
        if (!j.contains("seq") || !j["seq"].is_number_unsigned() || j["seq"].get<std::uint64_t>() != i)
            return "the records are out of sequence";
        if (j.value("event", "") != expected[i]) return "the records are not the workload's start, end and done";
        if (i < 2 && j.value("check", "") != workload) return "a record names another check";
    }
    end = lines[1];
    return "";
}

CheckResult runner_item(const std::string& name, double points, const std::string& visibility) {
    CheckResult c;
    c.name = name;
    c.max_points = points;
    c.visibility = visibility;
    return c;
}

void set_failure(CheckResult& c, Failure cls, const std::string& message) {
    c.cls = cls;
    c.message = message;
    c.hint = std::string(default_hint(cls));
}

namespace {
CheckResult base(const RubricSanitizer& item) { return runner_item(item.name, item.points, item.visibility); }
}  // namespace

CheckResult judge_sanitizer(const RubricSanitizer& item, const std::vector<SanitizerRun>& runs, const std::string& key,
                            double timeout_s) {
    CheckResult c = base(item);
    std::string figures;
    for (const auto& r : runs) {
        c.seconds += r.seconds;
        figures += (figures.empty() ? "" : ", ") + r.tool + " " + std::to_string(static_cast<int>(r.seconds + 0.5)) + " s";
    }
    if (!runs.empty()) c.notes.push_back("compute-sanitizer: " + figures + " (logs next to the lab's log)");
    if (runs.size() < item.tools.size() && (runs.empty() || !parse_sanitizer_log(runs.back().log_text).found())) {
        set_failure(c, Failure::GraderIntegrity, "not every tool of the rubric ran");
        return c;
    }
    for (const auto& r : runs) {
        const SanitizerFindings f = parse_sanitizer_log(r.log_text);
        const std::string where = " (log: " + r.log_path + ")";
        if (f.found()) {
            const Failure cls = r.tool == "memcheck" ? Failure::MemoryError : Failure::RaceCondition;
            std::string what = std::to_string(f.errors) + " error(s)";
            if (f.warnings) what += ", " + std::to_string(f.warnings) + " hazard warning(s)";
            set_failure(c, cls, r.tool + " reported " + what + (f.first.empty() ? "" : ": " + f.first.front()) + where);
            for (std::size_t i = 1; i < f.first.size(); ++i) c.notes.push_back(r.tool + ": " + f.first[i]);
            return c;
        }
        const auto& o = r.outcome;
        if (o.kind == ProcessOutcome::Kind::TimedOut) {
            set_failure(c, Failure::Timeout,
                        "the small-size workload was still running under " + r.tool + " after " +
                            std::to_string(static_cast<int>(timeout_s)) + " s" + where);
            return c;
        }
        if (o.kind == ProcessOutcome::Kind::Signaled) {
            set_failure(c, Failure::Crash, "the workload died under " + r.tool + " with signal " + std::to_string(o.code) + where);
            return c;
        }
        if (o.code == 3) {  // the workload lost its CUDA context, and the tool said nothing about why
            set_failure(c, Failure::IllegalMemoryAccess, "a kernel of the workload crashed under " + r.tool + where);
            return c;
        }
        nlohmann::json end;
        const std::string problem = workload_records_problem(parse_json_lines(r.records), key, kSanitizerWorkload, end);
        if (!problem.empty()) {
            set_failure(c, Failure::GraderIntegrity, "under " + r.tool + ": " + problem + where);
            return c;
        }
        if (!f.summary || o.code == kSanitizerErrorExit) {
            set_failure(c, Failure::GraderIntegrity, r.tool + "'s log has no summary of a finished run" + where);
            return c;
        }
        if (!end.value("passed", false)) {
            const Failure cls = failure_from_string(end.value("class", "")).value_or(Failure::WrongResult);
            set_failure(c, cls == Failure::None ? Failure::WrongResult : cls,
                        "the workload failed under " + r.tool + ": " + end.value("message", std::string()));
            return c;
        }
    }
    c.points = item.points;
    return c;
}

const CheckResult* first_broken_check(const std::vector<CheckResult>& checks) {
    for (const auto& c : checks)
        if (!c.passed() && c.cls != Failure::TechniqueNotUsed && c.cls != Failure::TooSlow) return &c;
    return nullptr;
}

void earns_nothing_without_working_code(CheckResult& item, const CheckResult& broken, const std::string& finding) {
    item.points = 0;
    item.cls = Failure::NotRun;
    item.message = finding + ", but this item earns its point only when the lab's results "
                   "are right (\"" + broken.name + "\" failed: " + std::string(to_string(broken.cls)) + ")";
    item.hint = "fix the failing check first";
}

void require_working_code(CheckResult& item, const std::vector<CheckResult>& other_checks, const std::string& finding) {
    if (!item.passed() || item.skipped) return;
    if (const CheckResult* broken = first_broken_check(other_checks))
        earns_nothing_without_working_code(item, *broken, finding);
}

CheckResult runner_item_skipped(CheckResult c, const std::string& why) {
    c.max_points = 0;
    c.skipped = true;
    c.message = why + ": not run; no points lost or given";
    return c;
}

CheckResult runner_item_not_built(CheckResult c, const ProcessOutcome& build) {
    set_failure(c, build.build_class, build.detail.empty() ? "the lab did not build" : build.detail);
    return c;
}

CheckResult sanitizer_skipped(const RubricSanitizer& item, const std::string& why) {
    return runner_item_skipped(base(item), why);
}

CheckResult sanitizer_not_built(const RubricSanitizer& item, const ProcessOutcome& build) {
    return runner_item_not_built(base(item), build);
}

std::optional<std::string> find_tool(const std::string& configured, const std::string& name) {
    namespace fs = std::filesystem;
    auto executable = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
    };
    if (!configured.empty() && executable(configured)) return configured;
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        std::string d;
        while (std::getline(dirs, d, ':'))
            if (!d.empty() && executable(fs::path(d) / name)) return (fs::path(d) / name).string();
    }
    return std::nullopt;
}

}  // namespace grading
