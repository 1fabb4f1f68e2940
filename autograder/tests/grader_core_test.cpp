// CPU tests of the runner: rubric parsing, how reports and exit statuses become classified
// results, the report formats, and the student-region comparison.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "isolation.hpp"
#include "locks.hpp"
#include "timed_counters.hpp"
#include "process.hpp"
#include "regions.hpp"
#include "reports.hpp"
#include "results.hpp"
#include "sanitizer.hpp"
#include "verdict.hpp"
#include "whereabouts.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
#include <fstream>
#include <map>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

using namespace grading;
using nlohmann::json;

namespace {
RubricLab sample_lab() {
    return parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X", "checks": [
        {"name": "correct", "points": 3}, {"name": "uses shared memory", "points": 1},
        {"name": "fast", "points": 2}]}]})"))
        .labs[0];
}
json start(const std::string& n) { return {{"event", "start"}, {"check", n}}; }
json end_pass(const std::string& n) { return {{"event", "end"}, {"check", n}, {"passed", true}, {"class", "pass"}}; }
json end_fail(const std::string& n, const std::string& cls) {
    return {{"event", "end"}, {"check", n}, {"passed", false}, {"class", cls}, {"message", "m"}, {"hint", "h"}};
}
const ProcessOutcome kExitedOk{ProcessOutcome::Kind::Exited, 0, 0, ""};
const ProcessOutcome kExitedFailures{ProcessOutcome::Kind::Exited, 1, 0, ""};
}  // namespace

TEST_CASE("failure classes round-trip through their report names") {
    for (Failure f : kAllFailures) {
        const auto back = failure_from_string(to_string(f));
        REQUIRE(back.has_value());
        CHECK(*back == f);
    }
    CHECK_FALSE(failure_from_string("segfault").has_value());
    CHECK(title(Failure::OutOfBoundsWrite) == "out of bounds write");
}

TEST_CASE("the rubric parser rejects malformed rubrics") {
    CHECK_THROWS(parse_rubric(json::parse(R"({"nolabs": []})")));
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": []}]})")));
    CHECK_THROWS(parse_rubric(json::parse(
        R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": [{"name": "a", "points": 1}, {"name": "a", "points": 2}]}]})")));
    CHECK_THROWS(parse_rubric(json::parse(
        R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": [{"name": "a", "points": -1}]}]})")));
    // Reference figures go with a threshold, as [lowest, highest].
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": [
        {"name": "a", "points": 1, "reference": {"GPU": [1.0, 1.1]}}]}]})")));
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": [
        {"name": "a", "points": 1, "threshold": 0.5, "reference": {"GPU": [1.1, 1.0]}}]}]})")));
    CHECK(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "d", "title": "t", "checks": [
        {"name": "a", "points": 1, "threshold": 0.5, "reference": {"GPU": [1.0, 1.1]}}]}]})"))
              .labs[0].checks[0].reference.size() == 1);
    CHECK(sample_lab().max_points() == 6);
    // A lab's longer measured pass: seconds above 0, with the reason.
    const auto with = [](const std::string& measured_pass) {
        return parse_rubric(json::parse(R"({"labs": [{"id": "06", "dir": "d", "title": "t", "measured_pass": )" +
                                        measured_pass + R"(, "checks": [{"name": "a", "points": 1}]}]})"));
    };
    CHECK(with(R"({"seconds": 150, "why": "curves measured three times"})").labs[0].measured_pass_seconds == 150);
    CHECK_THROWS(with(R"({"seconds": 150})"));
    CHECK_THROWS(with(R"({"seconds": 0, "why": "w"})"));
    CHECK_THROWS(with("150"));
    CHECK(sample_lab().measured_pass_seconds == 0);
}

TEST_CASE("the course rubric is well formed and lists each lab once") {
    const Rubric r = load_rubric(RUBRIC_PATH);
    REQUIRE_FALSE(r.labs.empty());
    for (std::size_t i = 0; i < r.labs.size(); ++i) {
        CHECK(r.labs[i].dir.rfind(r.labs[i].id + "-", 0) == 0);
        CHECK(r.labs[i].max_points() > 0);
        if (i > 0) CHECK(r.labs[i - 1].id < r.labs[i].id);
    }
}

TEST_CASE("a complete passing report earns every point") {
    const auto r = merge_lab_report(sample_lab(), "solution",
                                    {start("correct"), end_pass("correct"), start("uses shared memory"),
                                     end_pass("uses shared memory"), start("fast"), end_pass("fast")},
                                    kExitedOk);
    CHECK(r.passed());
    CHECK(r.points() == 6);
    CHECK(r.primary_failure() == Failure::None);
}

TEST_CASE("values a check hands to the workloads are kept when well formed, dropped otherwise") {
    json handed = end_pass("uses shared memory");
    handed["workload"] = {{"launch-4", "256x1x1+0"},       // kept
                          {"launch-8", "32x16x1+4096"},    // kept
                          {"Bad_Name", "1x1x1+0"},         // upper case and '_': dropped
                          {"tool", std::string(121, 'x')},  // too long: dropped
                          {"ctl", "a\nb"},                 // a control character: dropped
                          {"number", 5}};                   // not a string: dropped
    const auto r = merge_lab_report(sample_lab(), "solution",
                                    {start("correct"), end_pass("correct"), start("uses shared memory"), handed,
                                     start("fast"), end_pass("fast")},
                                    kExitedOk);
    CHECK(r.passed());
    CHECK(r.workload_args == std::map<std::string, std::string>{{"launch-4", "256x1x1+0"}, {"launch-8", "32x16x1+4096"}});
    CHECK(workload_arg_allowed("launch-4", "256x1x1+0"));
    CHECK_FALSE(workload_arg_allowed("", "x"));
    CHECK_FALSE(workload_arg_allowed(std::string(33, 'a'), "x"));
}

TEST_CASE("the headline failure is the one of highest precedence") {
    const auto r = merge_lab_report(sample_lab(), "student",
                                    {start("correct"), end_fail("correct", "wrong_result"), start("uses shared memory"),
                                     end_fail("uses shared memory", "technique_not_used"), start("fast"),
                                     end_fail("fast", "too_slow")},
                                    kExitedFailures);
    CHECK_FALSE(r.passed());
    CHECK(r.points() == 0);
    CHECK(r.primary_failure() == Failure::WrongResult);
    CHECK(r.checks[2].cls == Failure::TooSlow);
}

TEST_CASE("a timeout is charged to the check that was running; later checks are not run") {
    const ProcessOutcome timed_out{ProcessOutcome::Kind::TimedOut, SIGKILL, 20, ""};
    const auto r = merge_lab_report(sample_lab(), "student", {start("correct"), end_pass("correct"),
                                                              start("uses shared memory")},
                                    timed_out);
    CHECK(r.checks[0].passed());
    CHECK(r.checks[1].cls == Failure::Timeout);
    CHECK(r.checks[1].message.find("20 s") != std::string::npos);
    CHECK(r.checks[2].cls == Failure::NotRun);
    CHECK(r.primary_failure() == Failure::Timeout);
    CHECK(r.points() == 3);
}

TEST_CASE("a crash between checks is still reported") {
    const ProcessOutcome segv{ProcessOutcome::Kind::Signaled, SIGSEGV, 0, ""};
    const auto r = merge_lab_report(sample_lab(), "student", {start("correct"), end_pass("correct")}, segv);
    CHECK(r.checks[1].cls == Failure::Crash);
    CHECK(r.checks[2].cls == Failure::NotRun);
}

TEST_CASE("after a lost CUDA context the crashed check keeps its class and the rest are not run") {
    const ProcessOutcome lost{ProcessOutcome::Kind::Exited, 3, 0, ""};
    const auto r = merge_lab_report(sample_lab(), "student",
                                    {start("correct"), end_fail("correct", "illegal_memory_access")}, lost);
    CHECK(r.checks[0].cls == Failure::IllegalMemoryAccess);
    CHECK(r.checks[1].cls == Failure::NotRun);
    CHECK(r.checks[2].cls == Failure::NotRun);
    CHECK(r.primary_failure() == Failure::IllegalMemoryAccess);
}

TEST_CASE("a build failure fails every check as does_not_compile with the compiler's first error") {
    const ProcessOutcome build{ProcessOutcome::Kind::BuildFailed, 2, 0, "x.cu(12): error: identifier \"foo\" is undefined"};
    const auto r = merge_lab_report(sample_lab(), "student", {}, build);
    for (const auto& c : r.checks) {
        CHECK(c.cls == Failure::DoesNotCompile);
        CHECK(c.message.find("foo") != std::string::npos);
    }
}

TEST_CASE("a check the program does not contain is reported, not silently passed") {
    const auto r = merge_lab_report(sample_lab(), "solution", {start("correct"), end_pass("correct")}, kExitedOk);
    CHECK(r.checks[1].cls == Failure::NotRun);
    CHECK(r.checks[1].message.find("does not contain") != std::string::npos);
    CHECK_FALSE(r.passed());
}

namespace {
// A two-pass lab: "correct" and "uses shared memory" in the exact pass, "fast" (a threshold) measured.
RubricLab two_pass_lab() {
    return parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X", "checks": [
        {"name": "correct", "points": 3}, {"name": "fast", "points": 2, "threshold": 0.7},
        {"name": "huge", "points": 1, "measured": "inputs sized by the GPU's memory"},
        {"name": "uses shared memory", "points": 1}]}]})"))
        .labs[0];
}
// A pass's records, each with the pass's key and its sequence number, then "done".
std::vector<json> keyed(std::vector<json> lines, const std::string& key, bool done = true) {
    if (done) lines.push_back({{"event", "done"}});
    for (std::size_t i = 0; i < lines.size(); ++i) {
        lines[i]["key"] = key;
        lines[i]["seq"] = i;
    }
    return lines;
}
}  // namespace

TEST_CASE("a lab run in two passes: each check from its own pass, in rubric order") {
    const RubricLab lab = two_pass_lab();
    CHECK_FALSE(lab.checks[0].measured);
    CHECK(lab.checks[1].measured);  // a threshold
    CHECK(lab.checks[2].measured);  // said why
    CHECK(pass_checks(lab, true).checks.size() == 2);
    CHECK(pass_checks(lab, false).checks[1].name == "uses shared memory");
    CHECK_THROWS(parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X", "checks": [
        {"name": "huge", "points": 1, "measured": true}]}]})")));

    json technique = end_fail("uses shared memory", "technique_not_used");
    technique["workload"] = {{"block-shape", "32x8x1"}};  // handed to the memory check by the exact pass
    PassReport exact{keyed({start("correct"), end_pass("correct"), start("uses shared memory"), technique}, "k1"),
                     kExitedFailures, "k1", ""};
    json fast = end_pass("fast");
    fast["value"] = 0.9;
    PassReport measured{keyed({start("fast"), fast, start("huge"), end_pass("huge")}, "k2"), kExitedOk, "k2", ""};
    LabResult r = merge_lab_passes(lab, "student", exact, measured);
    REQUIRE(r.checks.size() == 4);
    CHECK(r.checks[0].passed());
    CHECK(r.checks[1].name == "fast");
    CHECK(r.checks[1].value == 0.9);
    CHECK(r.checks[2].passed());
    CHECK(r.checks[3].cls == Failure::TechniqueNotUsed);
    CHECK(r.points() == 6);
    CHECK(r.workload_args.at("block-shape") == "32x8x1");

    // A check reported by the wrong pass breaks that pass's channel: its checks fail, the other pass's stand.
    PassReport swapped = measured;
    swapped.lines = keyed({start("correct"), end_pass("correct")}, "k2");
    r = merge_lab_passes(lab, "student", exact, swapped);
    CHECK(r.checks[0].passed());
    CHECK(r.checks[1].cls == Failure::GraderIntegrity);
    CHECK(r.checks[2].cls == Failure::GraderIntegrity);

    // The measured pass's waits for the GPU lock (gpu_wait records, inside a check or between checks) are no
    // verdict of any check; one of another run's channel still breaks the pass's channel.
    const json wait_begin = {{"event", "gpu_wait"}, {"state", "begin"}};
    const json wait_end = {{"event", "gpu_wait"}, {"state", "end"}};
    PassReport waited{keyed({wait_begin, wait_end, start("fast"), wait_begin, wait_end, fast, start("huge"),
                             end_pass("huge")},
                            "k2"),
                      kExitedOk, "k2", ""};
    r = merge_lab_passes(lab, "student", exact, waited);
    CHECK(r.checks[1].passed());
    CHECK(r.checks[1].value == 0.9);
    CHECK(r.checks[2].passed());
    waited.lines[3]["key"] = "other";
    r = merge_lab_passes(lab, "student", exact, waited);
    CHECK(r.checks[1].cls == Failure::GraderIntegrity);

    // A measured pass that crashed in its first check: that check is charged to the crash, the next not run.
    PassReport crashed{keyed({start("fast")}, "k2", false), {ProcessOutcome::Kind::Signaled, SIGSEGV, 0, ""}, "k2", ""};
    r = merge_lab_passes(lab, "student", exact, crashed);
    CHECK(r.checks[1].cls == Failure::Crash);
    CHECK(r.checks[2].cls == Failure::NotRun);

    // A measured pass not started (the exact pass hung): its checks are not run, and say why.
    PassReport skipped;
    skipped.not_started = "not run: the exact checks reached the time limit";
    r = merge_lab_passes(lab, "student", exact, skipped);
    CHECK(r.checks[1].cls == Failure::NotRun);
    CHECK(r.checks[2].message == skipped.not_started);
    CHECK(r.checks[3].cls == Failure::TechniqueNotUsed);
}

TEST_CASE("a report line torn by a kill is ignored") {
    const auto lines = parse_json_lines("{\"event\":\"start\",\"check\":\"a\"}\n\n{\"event\":\"end\",\"che");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0]["check"] == "a");
}

TEST_CASE("compiler errors are found in a build log") {
    CHECK(first_error_line("[ 50%] Building CUDA object\n/x/lab.cu(7): error: expected a \";\"\nmake[2]: *** Error 1\n") ==
          "/x/lab.cu(7): error: expected a \";\"");
    CHECK(first_error_line("all good\n") == "");
    // A long line (one that echoes the student's source) is cut at a character's start, never inside one:
    // the reports are JSON, which a broken UTF-8 sequence would make unwritable.
    std::string echoed = "static_assert(sizeof(\"error a";
    for (int k = 0; k < 300; ++k) echoed += "\xC3\xA9";
    const std::string cut = first_error_line(echoed + "\n");
    REQUIRE(cut.size() > 3);
    CHECK(cut.size() <= 303);
    CHECK(cut.compare(cut.size() - 3, 3, "...") == 0);
    CHECK_NOTHROW(static_cast<void>(json(cut).dump()));
}

TEST_CASE("the gradebook shows a formula-like name as text, and a report with a student's broken UTF-8 is written") {
    const Rubric rubric = parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X", "checks": [
        {"name": "correct", "points": 3}]}]})"));
    const std::vector<json> rows = {
        {{"student", "=HYPERLINK(\"http://x\",\"y\")"}, {"status", "graded"}, {"points", 3}, {"max_points", 3}},
        {{"student", "@SUM(A1)"}, {"status", "graded"}, {"points", 3}, {"max_points", 3}},
        {{"student", "ada"}, {"status", "graded"}, {"points", 3}, {"max_points", 3}}};
    const std::string csv = gradebook_csv(rows, rubric);
    CHECK(csv.find("\n\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",graded,") != std::string::npos);
    CHECK(csv.find("\n'@SUM(A1),graded,") != std::string::npos);
    CHECK(csv.find("\nada,graded,") != std::string::npos);
    // A verdict whose message echoes bytes that are not UTF-8 is still written (the bytes replaced).
    Verdict v{"audit"};
    v.refuse("refused_region", std::string("line 3 holds [[\xff]]"));
    const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/verdict-utf8-" +
                             std::to_string(::getpid()) + ".json";
    CHECK(v.write(path) == 1);  // written; 1 says the step refused
    const auto back = json::parse(std::ifstream(path), nullptr, false);
    std::remove(path.c_str());
    REQUIRE_FALSE(back.is_discarded());
    CHECK(back["message"].get<std::string>().find("line 3 holds [[") == 0);
}

TEST_CASE("a command that overruns its limit is killed and reported as timed out") {
    double elapsed = 0;
    const auto o = run_with_timeout({"/bin/sleep", "30"}, 0.5, "/dev/null", elapsed);
    CHECK(o.kind == ProcessOutcome::Kind::TimedOut);
    CHECK(elapsed < 5);
    const auto ok = run_with_timeout({"/bin/sh", "-c", "exit 4"}, 10, "/dev/null", elapsed);
    CHECK(ok.kind == ProcessOutcome::Kind::Exited);
    CHECK(ok.code == 4);
}

TEST_CASE("a timing blames the student's process only when it finds the same twice in a row") {
    // Found once (outside work that stopped as the student's process was ended looks like the student's):
    // measured again, and that measurement stands. Found twice: the blame stands.
    int runs = 0;
    const auto once = [&] {
        if (++runs == 1) throw timed_counters::CountersTaken("the monitors were taken");
        return 7;
    };
    int told = 0;  // what the process started anew is given before the second timing, and only then
    CHECK(isolation::blamed_twice(once, [&] {
              CHECK(runs == 1);
              ++told;
          }) == 7);
    CHECK(runs == 2);
    CHECK(told == 1);
    runs = told = 0;
    CHECK(isolation::blamed_twice([&] { return ++runs; }, [&] { ++told; }) == 1);
    CHECK(told == 0);
    runs = 0;
    const auto always = [&]() -> int {
        ++runs;
        throw timed_counters::CountersTaken("the monitors were taken");
    };
    CHECK_THROWS_AS(isolation::blamed_twice(always), timed_counters::CountersTaken);
    CHECK(runs == 2);
    runs = 0;
    const auto other = [&]() -> int {  // anything else is not measured again
        ++runs;
        throw std::runtime_error("a launch failed");
    };
    CHECK_THROWS_AS(isolation::blamed_twice(other), std::runtime_error);
    CHECK(runs == 1);
}

TEST_CASE("the keeper ignores signals from below; killed, what it kept is ended by the runner") {
    namespace fs = std::filesystem;
    double elapsed = 0;
    // SIGTERM, SIGHUP, SIGUSR1 and SIGINT from the program to its keeper ($PPID) change nothing: the
    // program ends as it would have.
    const auto o = run_with_timeout(
        {"/bin/sh", "-c", "kill -TERM $PPID; kill -HUP $PPID; kill -USR1 $PPID; kill -INT $PPID; sleep 0.3; exit 3"}, 20,
        "/dev/null", elapsed);
    CHECK(o.kind == ProcessOutcome::Kind::Exited);
    CHECK(o.code == 3);
    // SIGKILL of the keeper (an unconfined process below can): the runner, a subreaper, ends the program
    // and its daemon, reparented to it, once the keeper is reaped.
    REQUIRE(mark_runner_subreaper());
    const fs::path pid_file = fs::temp_directory_path() / ("keeper-killed-" + std::to_string(::getpid()));
    const std::string script = "( setsid sh -c 'echo $$ > " + pid_file.string() + ".tmp; mv " + pid_file.string() +
                               ".tmp " + pid_file.string() + "; exec sleep 60' & ); while [ ! -s " + pid_file.string() +
                               " ]; do sleep 0.05; done; kill -KILL $PPID; sleep 30";
    const auto killed = run_with_timeout({"/bin/sh", "-c", script}, 60, "/dev/null", elapsed);
    CHECK(killed.kind == ProcessOutcome::Kind::Signaled);
    CHECK(elapsed < 10);
    const auto text = read_text_file(pid_file.string());
    REQUIRE(text.has_value());
    const pid_t daemon = static_cast<pid_t>(std::stol(*text));
    errno = 0;
    CHECK(::kill(daemon, 0) == -1);
    CHECK(errno == ESRCH);
    // Nothing of it is left as this process's child either (the program's shell and its sleep).
    CHECK(::waitpid(-1, nullptr, WNOHANG) == -1);
    fs::remove(pid_file);
}

TEST_CASE("a program stopped at its time limit says what it was doing first") {
    namespace fs = std::filesystem;
    // The keeper asks (whereabouts::kSayWhereSignal) before it kills: a program that answers has its
    // answer in the log.
    const fs::path log = fs::temp_directory_path() / ("where-test-" + std::to_string(::getpid()) + ".log");
    double elapsed = 0;
    const auto o = run_with_timeout({"/bin/bash", "-c", "trap 'echo at the limit: sleeping >&2' USR1; sleep 30 & wait"},
                                    1.0, log.string(), elapsed);
    CHECK(o.kind == ProcessOutcome::Kind::TimedOut);
    CHECK(read_text_file(log.string()).value_or("").find("at the limit: sleeping") != std::string::npos);
    fs::remove(log);
    // The check program's answer: what it was doing, the batch, the check.
    int out[2];
    REQUIRE(::pipe(out) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::dup2(out[1], STDERR_FILENO);
        whereabouts::install();
        whereabouts::set_check("speed: close to the peer");
        const whereabouts::Doing outer("timing across the process boundary");
        {
            const whereabouts::Doing inner("waiting for the student's process to answer a request");
            whereabouts::set_batch(57, 1);
            ::raise(whereabouts::kSayWhereSignal);
        }
        whereabouts::set_batch(-1, -1);
        ::raise(whereabouts::kSayWhereSignal);
        ::_exit(0);
    }
    ::close(out[1]);
    std::string said;
    char buf[512];
    for (ssize_t got; (got = ::read(out[0], buf, sizeof buf)) > 0;) said.append(buf, static_cast<std::size_t>(got));
    ::close(out[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(said.find("this program was: waiting for the student's process to answer a request (batch 57, contender 1) in "
                    "the check \"speed: close to the peer\"") != std::string::npos);
    CHECK(said.find("this program was: timing across the process boundary in the check") != std::string::npos);
}

TEST_CASE("nothing a command starts outlives it, a daemon that left its group and session included") {
    // The command starts a daemon (fork, setsid, fork: reparented on its parent's exit) that writes its pid
    // and sleeps; then it ends, or (the second time) overruns its limit. Either way the daemon is gone when
    // run_with_timeout returns.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("daemon-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const bool overrun : {false, true}) {
        const fs::path pid_file = dir / (overrun ? "overrun" : "ended");
        const std::string script = "( setsid sh -c 'echo $$ > " + pid_file.string() + ".tmp; mv " + pid_file.string() +
                                   ".tmp " + pid_file.string() + "; exec sleep 60' & ); while [ ! -s " +
                                   pid_file.string() + " ]; do sleep 0.05; done; " + (overrun ? "sleep 30" : "exit 3");
        double elapsed = 0;
        const auto o = run_with_timeout({"/bin/sh", "-c", script}, overrun ? 2.0 : 20.0, "/dev/null", elapsed);
        CHECK(o.kind == (overrun ? ProcessOutcome::Kind::TimedOut : ProcessOutcome::Kind::Exited));
        if (!overrun) CHECK(o.code == 3);
        CHECK(elapsed < 15);
        const auto text = read_text_file(pid_file.string());
        REQUIRE(text.has_value());
        const pid_t daemon = static_cast<pid_t>(std::stol(*text));
        CHECK(daemon > 0);
        errno = 0;
        CHECK(::kill(daemon, 0) == -1);
        CHECK(errno == ESRCH);
    }
    // The runner itself killed (its grading stopped): everything below its command ends too.
    {
        const fs::path pid_file = dir / "runner-killed";
        const std::string script = "( setsid sh -c 'echo $$ > " + pid_file.string() + ".tmp; mv " + pid_file.string() +
                                   ".tmp " + pid_file.string() + "; exec sleep 60' & ); sleep 30";
        const pid_t runner = ::fork();
        REQUIRE(runner >= 0);
        if (runner == 0) {
            double unused = 0;
            run_with_timeout({"/bin/sh", "-c", script}, 60, "/dev/null", unused);
            ::_exit(0);
        }
        std::optional<std::string> text;
        for (int i = 0; i < 200 && !(text = read_text_file(pid_file.string())); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        ::kill(runner, SIGKILL);
        ::waitpid(runner, nullptr, 0);
        REQUIRE(text.has_value());
        const pid_t daemon = static_cast<pid_t>(std::stol(*text));
        bool gone = false;
        for (int i = 0; i < 200 && !gone; ++i) {
            gone = ::kill(daemon, 0) == -1 && errno == ESRCH;
            if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        CHECK(gone);
    }
    double elapsed = 0;
    const auto o = run_with_timeout({"/bin/sh", "-c", "kill -SEGV $$"}, 10, "/dev/null", elapsed);
    // A program reads its input to its end (the key, then the secret's lines): nothing but the runner holds
    // the other end, so the end comes.
    std::string report;
    const auto read_all = run_with_timeout({"/bin/sh", "-c", "cat > /dev/null; exit 5"}, 5, "/dev/null", elapsed, "",
                                           &report, "key1", "more\n");
    CHECK(read_all.kind == ProcessOutcome::Kind::Exited);
    CHECK(read_all.code == 5);
    CHECK(o.kind == ProcessOutcome::Kind::Signaled);
    CHECK(o.code == SIGSEGV);
    fs::remove_all(dir);
}

TEST_CASE("a measured pass's waits for the GPU lock do not count against its time limit, with its own key only") {
    // The child reads its key, says it waits (as a lab's program does around the GPU lock), sleeps 1.5 s
    // "waiting", says it got the lock, and ends: under a limit of 1 s it is not timed out. The same with
    // another key's records, or none, is.
    const auto run = [](const std::string& record_key) {
        const std::string say = "printf '{\"event\":\"gpu_wait\",\"key\":\"%s\",\"seq\":%d,\"state\":\"%s\"}\\n' ";
        const std::string script = "read k; k=" + record_key + "; " + say + "\"$k\" 0 begin >&3; sleep 1.5; " + say +
                                   "\"$k\" 1 end >&3; exit 0";
        double elapsed = 0;
        std::string report;
        const auto o = run_with_timeout({"/bin/sh", "-c", script}, 1.0, "/dev/null", elapsed, "", &report, "key1");
        return std::make_pair(o.kind, report);
    };
    const auto [waited, records] = run("key1");
    CHECK(waited == ProcessOutcome::Kind::Exited);
    CHECK(records.find("\"begin\"") != std::string::npos);
    CHECK(run("other").first == ProcessOutcome::Kind::TimedOut);
}

TEST_CASE("XML escaping covers markup and control characters") {
    CHECK(xml_escape("a<b & \"c\"\x01") == "a&lt;b &amp; &quot;c&quot; ");
}

TEST_CASE("reports carry scores, classes and figures; sample reports are written for the schema tests") {
    const ProcessOutcome timed_out{ProcessOutcome::Kind::TimedOut, SIGKILL, 20, ""};
    json fast = end_fail("fast", "too_slow");
    fast["value"] = 0.42;
    fast["threshold"] = 0.7;
    fast["unit"] = "x CUB";
    fast["notes"] = {"n = 2^28: yours 3100 GB/s, naive 532 GB/s, CUB 4372 GB/s"};
    std::vector<LabResult> labs = {
        merge_lab_report(sample_lab(), "student",
                         {start("correct"), end_pass("correct"), start("uses shared memory"),
                          end_pass("uses shared memory"), start("fast"), fast},
                         kExitedFailures),
        merge_lab_report(sample_lab(), "student", {start("correct")}, timed_out)};
    labs[1].id = "02";
    // A memory and race check that could not run: reported, counted neither way.
    labs[0].checks.push_back(sanitizer_skipped({"memory and race check", 1, {"memcheck"}}, "compute-sanitizer was not found"));
    const RunInfo info{"Test GPU <sm_90>", 1234, 1.5, 2.5};

    const json gs = gradescope_json(labs, info);
    CHECK(gs["score"] == 4);
    REQUIRE(gs["tests"].size() == 7);
    CHECK(gs["tests"][3]["max_score"] == 0);
    CHECK(gs["tests"][3]["output"].get<std::string>().find("no points lost or given") != std::string::npos);
    CHECK(gs["tests"][2]["status"] == "failed");
    CHECK(gs["tests"][2]["output"].get<std::string>().find("0.42") != std::string::npos);
    CHECK(gs["tests"][4]["output"].get<std::string>().find("timeout") != std::string::npos);
    // Gradescope's extras: Markdown output (markup characters escaped), visibility, a leaderboard of
    // what the speed checks measured.
    CHECK(gs["output_format"] == "md");
    CHECK(gs["tests"][0]["visibility"] == "visible");
    REQUIRE(gs.contains("leaderboard"));
    REQUIRE(gs["leaderboard"].size() == 1);
    CHECK(gs["leaderboard"][0]["value"] == 3100);
    CHECK(gs["leaderboard"][0]["name"].get<std::string>().find("(GB/s)") != std::string::npos);

    const std::string xml = junit_xml(labs, info);
    CHECK(xml.find("type=\"too_slow\"") != std::string::npos);
    CHECK(xml.find("Test GPU &lt;sm_90&gt;") != std::string::npos);
    CHECK(xml.find("<skipped message=\"compute-sanitizer was not found") != std::string::npos);

    const std::string table = summary_table(labs, info);
    CHECK(table.find("FAIL: too slow") != std::string::npos);
    CHECK(table.find("Total: 4/12") != std::string::npos);

    std::ofstream(std::string(SAMPLE_REPORT_DIR) + "/sample_results.json") << gs.dump(2);
    std::ofstream(std::string(SAMPLE_REPORT_DIR) + "/sample_junit.xml") << xml;
    json bad = gs;
    bad["tests"][0]["status"] = "skipped";
    std::ofstream(std::string(SAMPLE_REPORT_DIR) + "/sample_results_bad.json") << bad.dump(2);
}

TEST_CASE("starter and solution may differ only inside student regions") {
    const std::string starter = "a\n// BEGIN STUDENT REGION k\n// TODO\n// END STUDENT REGION\nb\n";
    const std::string solution = "a\n  // BEGIN STUDENT REGION k\nx = 1;\ny = 2;\n  // END STUDENT REGION\nb   \n";
    CHECK(compare_skeletons(starter, solution) == "");
    CHECK(compare_skeletons(starter, "a\n// BEGIN STUDENT REGION k\n// END STUDENT REGION\nc\n").find("reads") !=
          std::string::npos);
    CHECK(compare_skeletons(starter, "a\n// BEGIN STUDENT REGION other\n// END STUDENT REGION\nb\n")
              .find("regions differ") != std::string::npos);
    CHECK(compare_skeletons(starter, "a\n// BEGIN STUDENT REGION k\nb\n").find("never closed") != std::string::npos);
    CHECK(skeleton_of(starter).regions == std::vector<std::string>{"k"});
    // A file saved with CRLF line ends: each region's body ends without its last line's CR, so that the
    // rules see CR LF pairs only (a CR alone ends a line for GCC, and is refused).
    const Skeleton crlf = skeleton_of("a\r\n// BEGIN STUDENT REGION k\r\nx = 1;\r\ny = 2;\r\n// END STUDENT REGION\r\nb\r\n");
    REQUIRE(crlf.bodies.size() == 1);
    CHECK(crlf.bodies[0] == "x = 1;\r\ny = 2;");
    CHECK(check_region_body(crlf.bodies[0], RegionScope::Function) == "");
}

TEST_CASE("a verdict is written to a bare file name, and an unwritable path is reported, not thrown") {
    grading::Verdict v;
    v.stage = "audit";
    const std::string bare = "verdict-test-" + std::to_string(::getpid()) + ".json";
    CHECK(v.write(bare) == 0);
    const auto back = grading::Verdict::read(bare);
    REQUIRE(back.has_value());
    CHECK(back->ok);
    std::remove(bare.c_str());
    v.refuse("forbidden_symbol", "calls fopen");
    CHECK(v.write("/proc/no-such-folder/verdict.json") == 2);
}

TEST_CASE("where the time went: each check's seconds under its kind, the timed ones apart") {
    RubricLab lab = sample_lab();
    lab.checks[2].threshold = 0.7;  // "fast": a speed check
    lab.checks[2].measured = true;
    lab.sanitizer = RubricSanitizer{"memory and race check", 1, {"memcheck", "racecheck"}};
    RubricSharedUse use;
    use.name = "shared memory used";
    lab.shared_use = use;
    RubricBankConflicts bank;
    bank.name = "no bank conflicts";
    lab.bank_conflicts = bank;
    LabResult r;
    r.id = "01";
    r.build_seconds = 4.0;
    const auto check = [](const std::string& name, double seconds) {
        CheckResult c;
        c.name = name;
        c.seconds = seconds;
        return c;
    };
    r.checks = {check("correct", 1.5), check("uses shared memory", 0.5), check("fast", 20.0),
                check("memory and race check", 7.0), check("shared memory used", 9.0), check("no bank conflicts", 9.0)};
    LabResult second = r;
    second.id = "02";
    r.alone_seconds = 3.0;  // lab 01's program had the GPU alone 3 s of its measured checks' 20
    // lab 02's: -1, the runner held the lock alone for the whole pass (one pass a lab): all 20 s alone
    const std::string text = time_breakdown({r, second}, {&lab, &lab}, true);
    // lab 01: build 4.0, exact 2.0, measured 20.0 (3.0 alone), memory check 7.0, Nsight 9.0 (one run judges both items)
    CHECK(text.find("01    4.0      2.0            20.0              3.0         7.0            9.0\n") != std::string::npos);
    CHECK(text.find("02    4.0      2.0            20.0              20.0        7.0            9.0\n") != std::string::npos);
    CHECK(text.find("all   8.0      4.0            40.0              23.0        14.0           18.0\n") != std::string::npos);
    // Alone: 23.0 of the measured checks + Nsight 18.0; beside others: exact 4.0 + the measured checks' other
    // 17.0 + the memory check's 14.0.
    CHECK(text.find("GPU to itself (what the measured checks time or size by the GPU's memory, and Nsight Compute): "
                    "41.0 s; beside other gradings' work (exact checks, the rest of the measured checks, memory check): "
                    "35.0 s\n") != std::string::npos);
    CHECK(text.find("the GPU lock: held alone 41.0 s, shared 35.0 s\n") != std::string::npos);
    CHECK(time_breakdown({r}, {&lab}, false).find("the GPU lock") == std::string::npos);
}

TEST_CASE("the GPU lock is one file a physical GPU, however its PCI address is written") {
    const std::string lock = gpu_lock_for_bus_id("0000:19:00.0");
    CHECK(lock == "/tmp/course-grader-gpu-0000_19_00_0.lock");
    CHECK(gpu_lock_for_bus_id("00000000:19:00.0") == lock);  // nvidia-smi's 8-digit domain
    CHECK(gpu_lock_for_bus_id("0000:1A:00.0") == gpu_lock_for_bus_id("0000:1a:00.0"));
    CHECK(gpu_lock_for_bus_id("0000:1a:00.0") != lock);
    CHECK(gpu_lock_for_bus_id("0") == "");
    CHECK(gpu_lock_for_bus_id("0000:19:00.0; rm") == "");
    CHECK(gpu_lock_for_bus_id("") == "");
}

TEST_CASE("the GPU lock: measured work alone, shared work together, and a waiting measurement first") {
    char dir_template[] = "/tmp/gpu-lock-test-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template, lock = dir + "/gpu.lock";
    const auto try_shared = [&] { return FileLock::take(lock, false, true).held(); };
    const auto try_alone = [&] { return FileLock::take(lock, false).held(); };
    {
        // Memory checks of two gradings at once; no measurement beside them.
        const FileLock a = take_gpu(lock, GpuUse::Shared), b = take_gpu(lock, GpuUse::Shared);
        CHECK(a.held());
        CHECK(b.held());
        CHECK(try_shared());
        CHECK_FALSE(try_alone());
    }
    {
        // A measurement: nothing beside it, shared or not.
        const FileLock m = take_gpu(lock, GpuUse::Measured);
        CHECK(m.held());
        CHECK_FALSE(try_shared());
        CHECK_FALSE(try_alone());
    }
    CHECK(try_alone());  // all given back
    {
        // Shared work holds the GPU; a measurement comes to wait; shared work that comes after it waits
        // behind it, not beside the first (it would keep the measurement waiting as long as some came).
        std::vector<std::string> order;
        std::mutex m;
        const auto note = [&](const std::string& what) {
            std::lock_guard<std::mutex> g(m);
            order.push_back(what);
        };
        auto first = std::make_unique<FileLock>(take_gpu(lock, GpuUse::Shared));
        std::thread measure([&] {
            const FileLock l = take_gpu(lock, GpuUse::Measured);
            note("measured");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            note("measured done");
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the measurement waits at the lock
        std::thread later([&] {
            const FileLock l = take_gpu(lock, GpuUse::Shared);
            note("later shared");
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        {
            std::lock_guard<std::mutex> g(m);
            CHECK(order.empty());  // both wait while the first holds the GPU
        }
        first.reset();
        measure.join();
        later.join();
        CHECK(order == std::vector<std::string>{"measured", "measured done", "later shared"});
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("a measured pass holds the GPU lock shared, alone only around what it times, and two of them never "
          "wait for each other") {
    char dir_template[] = "/tmp/gpu-share-test-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string dir = dir_template, lock = dir + "/gpu.lock";
    const auto try_shared = [&] { return FileLock::take(lock, false, true).held(); };
    const auto try_alone = [&] { return FileLock::take(lock, false).held(); };
    {
        int waits = 0;
        // The student's processes are dealt with while the lock is still held: no other measurement can
        // start before they are ended (before, the lock was let go first).
        GpuShare a(lock, [&] {
            ++waits;
            CHECK_FALSE(try_alone());
        });
        CHECK_FALSE(a.is_alone());
        CHECK(try_shared());       // another grading's exact checks run beside its set-up
        CHECK_FALSE(try_alone());  // no other measurement does
        a.alone();
        CHECK(a.is_alone());
        CHECK_FALSE(try_shared());  // nothing beside what it times
        a.alone();                  // already alone: nothing more
        a.share();
        CHECK(try_shared());
        CHECK(waits == 2);  // the student's processes were ended before each change
    }
    CHECK(try_alone());  // given back with the program
    {
        // Two measured passes at once, each switching to alone and back many times: each is alone only
        // while the other is not on the GPU at all, and neither waits for the other forever (each gives its
        // shared hold back before it waits).
        std::atomic<int> alone_now{0}, most{0}, done{0};
        const auto program = [&] {
            GpuShare share(lock, nullptr);
            for (int i = 0; i < 20; ++i) {
                share.alone();
                const int now = ++alone_now;
                int seen = most.load();
                while (now > seen && !most.compare_exchange_weak(seen, now)) {}
                CHECK_FALSE(try_shared());
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                --alone_now;
                share.share();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
            ++done;
        };
        std::thread first(program), second(program);
        first.join();
        second.join();
        CHECK(done == 2);
        CHECK(most == 1);
    }
    {
        // Alone behind another grading's exact checks: it waits until they end, and exact checks that come
        // after it wait behind it (the gate), not beside the first.
        auto exact = std::make_unique<FileLock>(take_gpu(lock, GpuUse::Shared));
        GpuShare share(lock, nullptr);
        std::atomic<bool> alone{false};
        std::thread measure([&] {
            share.alone();
            alone = true;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        CHECK_FALSE(alone.load());
        exact.reset();
        measure.join();
        CHECK(alone.load());
        CHECK_FALSE(try_shared());
        share.share();
        CHECK(try_shared());
    }
    std::filesystem::remove_all(dir);
}

TEST_CASE("the seconds a measured pass had the GPU alone: from its own last record, with the run's key") {
    std::vector<json> lines = keyed({start("fast"), end_pass("fast")}, "k");
    CHECK_FALSE(alone_seconds_of(lines, "k").has_value());  // not handed the lock: says nothing
    lines.back()["alone_seconds"] = 2.5;
    REQUIRE(alone_seconds_of(lines, "k").has_value());
    CHECK(*alone_seconds_of(lines, "k") == doctest::Approx(2.5));
    CHECK_FALSE(alone_seconds_of(lines, "other").has_value());  // not this run's
    lines.back()["alone_seconds"] = -1.0;
    CHECK_FALSE(alone_seconds_of(lines, "k").has_value());
    lines.back()["alone_seconds"] = "2";
    CHECK_FALSE(alone_seconds_of(lines, "k").has_value());
    lines.pop_back();  // the run did not reach its end
    CHECK_FALSE(alone_seconds_of(lines, "k").has_value());
    CHECK_FALSE(alone_seconds_of({}, "k").has_value());
}

TEST_CASE("a lock is taken on the file its path names: one removed while a taker waited is let go") {
    char dir_template[] = "/tmp/file-lock-test-XXXXXX";
    REQUIRE(::mkdtemp(dir_template) != nullptr);
    const std::string lock = std::string(dir_template) + "/gpu.lock";
    auto first = std::make_unique<FileLock>(FileLock::take(lock, true));
    REQUIRE(first->held());
    std::atomic<bool> taken{false};
    FileLock second;
    std::thread waiter([&] {
        second = FileLock::take(lock, true);  // waits on the file the path names now
        taken = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK_FALSE(taken.load());
    // The file is removed, then let go: the waiter's lock on it would lock nothing a later taker takes.
    REQUIRE(std::filesystem::remove(lock));
    first.reset();
    waiter.join();
    REQUIRE(second.held());
    CHECK(std::filesystem::exists(lock));                  // it took the file the path names now...
    CHECK_FALSE(FileLock::take(lock, false).held());        // ...so a later taker finds it taken
    std::filesystem::remove_all(dir_template);
}

TEST_CASE("a measured pass that was disturbed says why, with the run's key, and only then") {
    std::vector<json> lines = keyed({start("fast"), end_pass("fast")}, "k");
    CHECK_FALSE(disturbed_reason_of(lines, "k").has_value());
    lines.push_back({{"event", "disturbed"}, {"reason", "the GPU stayed busy"}, {"key", "k"}});
    REQUIRE(disturbed_reason_of(lines, "k").has_value());
    CHECK(*disturbed_reason_of(lines, "k") == "the GPU stayed busy");
    CHECK_FALSE(disturbed_reason_of(lines, "other").has_value());  // a record not of this run's channel
    lines.back().erase("reason");
    CHECK(disturbed_reason_of(lines, "k").value_or("") == "no reason given");
}

TEST_CASE("the timed calls' counters: sums over windows, and the staged-through-shared test both ways") {
    timed_counters::Totals a;
    a.shared_load_wavefronts = 30;
    a.shared_store_wavefronts = 10;
    a.lsu_instructions = 100;
    a.sm_active_cycles = 60;
    a.windows = 1;
    a.calls = 8;
    timed_counters::Totals sum = a;
    sum += a;
    CHECK(sum.windows == 2);
    CHECK(sum.calls == 16);
    CHECK(sum.shared_load_share() == doctest::Approx(0.5));
    CHECK(sum.wavefronts_per_memory_instruction() == doctest::Approx(0.3));
    // Lab 04's floor (0.10 each): 0.30 loads and 0.10 stores a memory instruction pass.
    CHECK(timed_counters::staged_shortfall(sum, 0.10, 0.10) == "");
    // A transpose straight through global memory: loads without a tile's stores.
    timed_counters::Totals no_tile = a;
    no_tile.shared_store_wavefronts = 0;
    const std::string why = timed_counters::staged_shortfall(no_tile, 0.10, 0.10);
    CHECK(why.find("0.300 loads, 0.000 stores") != std::string::npos);
    CHECK(why.find("at least 0.100 and 0.100") != std::string::npos);
    // No memory instruction counted: nothing to judge, never a failure.
    CHECK(timed_counters::staged_shortfall(timed_counters::Totals{}, 0.25, 0.0) == "");
}

TEST_CASE("the transpose's timed test: a tile read and written without bank conflicts, per call") {
    timed_counters::Totals t;
    t.calls = 24;
    t.shared_load_wavefronts = 5.092e7;  // Lab 04's reference on an H100: 8192 x 8192 a call
    t.shared_store_wavefronts = 5.069e7;
    const double free = 8192.0 * 8192.0 / 32;
    CHECK(timed_counters::conflicted_excess(t, free, 1.4) == "");
    timed_counters::Totals unpadded = t;
    unpadded.shared_load_wavefronts = 1.106e8;  // the tile unpadded in the timed calls
    const std::string why = timed_counters::conflicted_excess(unpadded, free, 1.4);
    CHECK(why.find("2.20x the shared-memory load wavefronts and 1.01x the store") != std::string::npos);
    CHECK(why.find("at most 1.40x") != std::string::npos);
    CHECK(timed_counters::conflicted_excess(timed_counters::Totals{}, free, 1.4) == "");
}

TEST_CASE("a floor a call: only a part of the work staged through shared memory falls short") {
    timed_counters::Totals t;
    t.calls = 24;
    t.shared_load_wavefronts = 5.092e7;  // Lab 04's reference on an H100: 8192 x 8192 a call
    t.shared_store_wavefronts = 5.069e7;
    const double all = 0.9 * 8192.0 * 8192.0 / 32;  // 0.9 of one wavefront for every 32 words
    CHECK(timed_counters::per_call_shortfall(t, all, all, "a tile that every element goes through") == "");
    // Half of the matrix through the tile, the other half straight from global memory.
    timed_counters::Totals half = t;
    half.shared_load_wavefronts /= 2;
    half.shared_store_wavefronts /= 2;
    const std::string why = timed_counters::per_call_shortfall(half, all, all, "a tile that every element goes through");
    CHECK(why.find("1.061e+06 loads, 1.056e+06 stores") != std::string::npos);
    CHECK(why.find("a tile that every element goes through needs at least 1.887e+06 and 1.887e+06") != std::string::npos);
    // Loads alone judged when the floor of stores is 0, and the other way round.
    CHECK(timed_counters::per_call_shortfall(half, 0, all / 2, "x") == "");
    CHECK(timed_counters::per_call_shortfall(half, all, 0, "x") != "");
    CHECK(timed_counters::per_call_shortfall(timed_counters::Totals{}, all, all, "x") == "");  // no call: nothing judged
}

TEST_CASE("the reductions' timed test: partials combined in shared memory in every call, per call") {
    timed_counters::Totals t;
    t.calls = 8;
    t.shared_store_wavefronts = 8 * 8448;  // Lab 01's reference: 1056 blocks of 8 warps a call
    t.shared_load_wavefronts = 8 * 1056;
    CHECK(timed_counters::combined_shortfall(t, 33) == "");
    // Shuffles and global atomics alone: nothing in shared memory.
    timed_counters::Totals none = t;
    none.shared_store_wavefronts = none.shared_load_wavefronts = 0;
    CHECK(timed_counters::combined_shortfall(none, 33).find("0.0 loads, 0.0 stores") != std::string::npos);
    // Token stores by idle warps, never loaded back.
    timed_counters::Totals stores_only = t;
    stores_only.shared_load_wavefronts = 0;
    const std::string why = timed_counters::combined_shortfall(stores_only, 33);
    CHECK(why.find("0.0 loads, 8448.0 stores") != std::string::npos);
    CHECK(why.find("at least 33 of each") != std::string::npos);
    // A sum of windows per call: twice the calls, half the figure.
    timed_counters::Totals sum = t;
    sum += t;
    CHECK(sum.calls == 16);
    CHECK(timed_counters::combined_shortfall(sum, 1056) == "");
    CHECK(timed_counters::combined_shortfall(sum, 1057) != "");
    CHECK(timed_counters::combined_shortfall(timed_counters::Totals{}, 33) == "");  // no call: nothing judged
    // For each block launched: the reference's 1056 blocks a call, one load and eight stores each.
    t.blocks = 8 * 1058;
    CHECK(timed_counters::combined_shortfall(t, 33, 0.9) == "");
    // Honest in the first call of each batch of 8 only: the same blocks, an eighth of the loads.
    timed_counters::Totals first_only = t;
    first_only.shared_load_wavefronts = 1056;
    first_only.shared_store_wavefronts = 8448;
    CHECK(timed_counters::combined_shortfall(first_only, 33) == "");  // the floor a call alone lets it through
    const std::string per_block = timed_counters::combined_shortfall(first_only, 33, 0.9);
    CHECK(per_block.find("0.12 loads, 1.00 stores (8464 blocks)") != std::string::npos);
    CHECK(per_block.find("at least 0.90 of each") != std::string::npos);
    timed_counters::Totals no_blocks = first_only;
    no_blocks.blocks = 0;  // blocks not counted: judged a call only
    CHECK(timed_counters::combined_shortfall(no_blocks, 33, 0.9) == "");
    // For each warp launched but one a block: the reference's 8 warps a block store 8 partials.
    t.optional[0] = 8 * 1058 * 8.0;  // warps: 8 calls of 1058 blocks (the grader's own among them) of 8 warps
    CHECK(t.warps() == 8 * 1058 * 8);
    CHECK(timed_counters::combined_shortfall(t, 33, 0.9, 0.75) == "");
    // Warp 0 keeps its own partial in registers: 7 stores a block, 1.0 for each warp but one.
    timed_counters::Totals seven = t;
    seven.shared_store_wavefronts = 8 * 1058 * 7.0;
    CHECK(timed_counters::combined_shortfall(seven, 33, 0.9, 0.75) == "");
    // Each warp adds its partial with a global atomic, one token store and load a block: passes the floors a
    // call and a block, not a warp.
    timed_counters::Totals token = t;
    token.shared_store_wavefronts = token.shared_load_wavefronts = 8 * 1058;
    CHECK(timed_counters::combined_shortfall(token, 33, 0.9) == "");
    const std::string per_warp = timed_counters::combined_shortfall(token, 33, 0.9, 0.75);
    CHECK(per_warp.find("0.14 shared-memory store wavefronts for each warp launched but one a block (67712 warps in "
                        "8464 blocks)") != std::string::npos);
    CHECK(per_warp.find("at least 0.75") != std::string::npos);
    // Warps not counted, or one warp a block: no warp to hand a partial on, nothing judged a warp.
    timed_counters::Totals no_warps = token;
    no_warps.optional[0] = 0;
    CHECK(timed_counters::combined_shortfall(no_warps, 33, 0.9, 0.75) == "");
    timed_counters::Totals one_warp = token;
    one_warp.optional[0] = one_warp.blocks;
    CHECK(timed_counters::combined_shortfall(one_warp, 33, 0.9, 0.75) == "");
}
