// CPU tests of the memory and race check's judgement: compute-sanitizer logs as the tools write them,
// the workload's records, and how each way a run can end becomes a class.
#include <doctest/doctest.h>

#include "process.hpp"
#include "results.hpp"
#include "sanitizer.hpp"

#include <nlohmann/json.hpp>

#include <csignal>

using namespace grading;
using nlohmann::json;

namespace {
const RubricSanitizer kItem{"memory and race check (compute-sanitizer)", 1, {"memcheck", "racecheck", "synccheck"}};
const std::string kKey = "k3y";

const char* kCleanMemcheck = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
const char* kCleanRacecheck =
    "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n";
const char* kOverRead =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ read of size 4 bytes\n"
    "=========     at lab01::block_sum_kernel(const float *, float *, unsigned long)+0x1b0 in sum_reduction.cu:47\n"
    "=========     by thread (33,0,0) in block (0,0,0)\n"
    "=========     Address 0x7f0000000084 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f0000000000 of size 132 bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========\n"
    "========= ERROR SUMMARY: 1 error\n";
const char* kRace =
    "========= COMPUTE-SANITIZER\n"
    "========= Warning: Race reported between Write access at lab01::block_sum_kernel(...)+0x2c0 in sum_reduction.cu:60\n"
    "=========     and Read access at lab01::block_sum_kernel(...)+0x2e0 in sum_reduction.cu:61 [248 hazards]\n"
    "=========\n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (0 errors, 1 warning)\n";

std::string records(const std::string& key, bool passed = true) {
    std::string out;
    const json lines[] = {{{"event", "start"}, {"check", kSanitizerWorkload}},
                          {{"event", "end"}, {"check", kSanitizerWorkload}, {"passed", passed},
                           {"class", passed ? "pass" : "launch_error"}, {"message", "too many threads"}},
                          {{"event", "done"}}};
    for (std::size_t i = 0; i < 3; ++i) {
        json j = lines[i];
        j["key"] = key;
        j["seq"] = i;
        out += j.dump() + "\n";
    }
    return out;
}

SanitizerRun run(const std::string& tool, const std::string& log, int code = 0, const std::string& recs = records(kKey)) {
    SanitizerRun r;
    r.tool = tool;
    r.outcome = {ProcessOutcome::Kind::Exited, code, 0, ""};
    r.log_text = log;
    r.log_path = "/tmp/" + tool + ".log";
    r.records = recs;
    r.seconds = 2;
    return r;
}

std::vector<SanitizerRun> clean_runs() {
    return {run("memcheck", kCleanMemcheck), run("racecheck", kCleanRacecheck), run("synccheck", kCleanMemcheck)};
}
}  // namespace

TEST_CASE("compute-sanitizer logs: summaries and the first report are read") {
    const auto clean = parse_sanitizer_log(kCleanMemcheck);
    CHECK(clean.summary);
    CHECK_FALSE(clean.found());
    const auto over = parse_sanitizer_log(kOverRead);
    CHECK(over.errors == 1);
    REQUIRE(over.first.size() == 1);
    CHECK(over.first[0] == "Invalid __global__ read of size 4 bytes");
    const auto race = parse_sanitizer_log(kRace);
    CHECK(race.summary);
    CHECK(race.errors == 0);
    CHECK(race.warnings == 1);
    CHECK(race.found());
    REQUIRE_FALSE(race.first.empty());
    CHECK(race.first[0].find("Race reported") != std::string::npos);
    CHECK_FALSE(parse_sanitizer_log("student output: ERROR SUMMARY was forged? no digits\n").summary);
}

TEST_CASE("the sanitizer command runs the tool with its own log and error status, on child processes too") {
    const auto cmd = sanitizer_command("/cuda/bin/compute-sanitizer", "memcheck", "/g/m.log", {"/g/lab01", "--sanitizer-workload"});
    const std::vector<std::string> expected = {"/cuda/bin/compute-sanitizer", "--tool", "memcheck", "--log-file", "/g/m.log",
                                               "--error-exitcode", "86", "--print-limit", "20", "--target-processes", "all",
                                               "--leak-check", "no",
                                               "/g/lab01", "--sanitizer-workload"};
    CHECK(cmd == expected);
}

TEST_CASE("a clean run of every tool earns the item's points") {
    const CheckResult c = judge_sanitizer(kItem, clean_runs(), kKey, 60);
    CHECK(c.passed());
    CHECK(c.points == 1);
    CHECK(c.max_points == 1);
}

TEST_CASE("what each tool finds becomes its class, whatever the program's own exit") {
    auto runs = clean_runs();
    runs[0] = run("memcheck", kOverRead, kSanitizerErrorExit);
    runs.resize(1);  // the runner stops at the first tool that finds something
    CheckResult c = judge_sanitizer(kItem, runs, kKey, 60);
    CHECK(c.cls == Failure::MemoryError);
    CHECK(c.points == 0);
    CHECK(c.message.find("Invalid __global__ read") != std::string::npos);

    runs = clean_runs();
    runs[1] = run("racecheck", kRace, 0);
    runs.resize(2);
    c = judge_sanitizer(kItem, runs, kKey, 60);
    CHECK(c.cls == Failure::RaceCondition);
    CHECK(c.message.find("1 hazard warning") != std::string::npos);

    runs = clean_runs();
    runs[2] = run("synccheck", "========= Barrier error detected. Divergent thread(s) in warp\n========= ERROR SUMMARY: 1 error\n", 86);
    c = judge_sanitizer(kItem, runs, kKey, 60);
    CHECK(c.cls == Failure::RaceCondition);
}

TEST_CASE("a workload that did not really run under the tool earns nothing") {
    auto runs = clean_runs();
    runs[1].records = records("forged");
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::GraderIntegrity);

    runs = clean_runs();
    runs[0].records = "";  // ended before its checks: no records at all
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::GraderIntegrity);

    runs = clean_runs();
    runs[2].log_text = "";  // the tool never wrote its summary
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::GraderIntegrity);

    runs = clean_runs();
    runs.resize(2);  // a tool of the rubric missing, with nothing found
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::GraderIntegrity);

    runs = clean_runs();
    runs[0].outcome = {ProcessOutcome::Kind::TimedOut, SIGKILL, 60, ""};
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::Timeout);

    runs = clean_runs();
    runs[0].outcome = {ProcessOutcome::Kind::Signaled, SIGSEGV, 0, ""};
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::Crash);

    runs = clean_runs();
    runs[1].records = records(kKey, false);
    CHECK(judge_sanitizer(kItem, runs, kKey, 60).cls == Failure::LaunchError);
}

TEST_CASE("a skipped item counts neither way; a lab that does not build fails it like its other checks") {
    const CheckResult s = sanitizer_skipped(kItem, "compute-sanitizer was not found");
    CHECK(s.skipped);
    CHECK(s.passed());
    CHECK(s.max_points == 0);
    CHECK(s.points == 0);
    const CheckResult b = sanitizer_not_built(kItem, {ProcessOutcome::Kind::BuildFailed, 2, 0, "x.cu:3: error", Failure::RefusedRegion});
    CHECK(b.cls == Failure::RefusedRegion);
    CHECK(b.max_points == 1);
}

TEST_CASE("the rubric's sanitizer item is parsed and checked") {
    const auto lab = parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X",
        "checks": [{"name": "a", "points": 2}],
        "sanitizer": {"name": "memory", "points": 1, "tools": ["memcheck", "racecheck"]}}]})"))
                         .labs[0];
    REQUIRE(lab.sanitizer);
    CHECK(lab.sanitizer->tools.size() == 2);
    CHECK(lab.max_points() == 3);
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t",
        "checks": [{"name": "a", "points": 2}], "sanitizer": {"name": "m", "points": 1, "tools": ["valgrind"]}}]})")));
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t",
        "checks": [{"name": "a", "points": 2}], "sanitizer": {"name": "a", "points": 1, "tools": ["memcheck"]}}]})")));
    for (const auto& l : load_rubric(RUBRIC_PATH).labs) {
        INFO("lab " << l.id);
        REQUIRE(l.sanitizer);
        CHECK(l.sanitizer->tools.front() == "memcheck");
    }
}

TEST_CASE("a clean run earns its point only when the lab's code works") {
    CheckResult clean = judge_sanitizer(kItem, clean_runs(), kKey, 60);
    CheckResult slow;
    slow.name = "speed";
    slow.cls = Failure::TooSlow;
    require_working_code(clean, {slow});
    CHECK(clean.points == 1);  // slow is fine: the code works

    CheckResult wrong;
    wrong.name = "exact sum";
    wrong.cls = Failure::WrongResult;
    require_working_code(clean, {slow, wrong});
    CHECK(clean.points == 0);
    CHECK(clean.cls == Failure::NotRun);
    CHECK(clean.max_points == 1);
    CHECK(clean.message.find("exact sum") != std::string::npos);

    auto runs = clean_runs();
    runs[0] = run("memcheck", kOverRead, kSanitizerErrorExit);
    runs.resize(1);
    CheckResult found = judge_sanitizer(kItem, runs, kKey, 60);
    require_working_code(found, {wrong});
    CHECK(found.cls == Failure::MemoryError);  // what the tool found stays
}
