// CPU tests of the bank-conflict check's judgement: Nsight Compute reports as the tool writes them (a
// real one, recorded on an NVIDIA H200), the workload's records, and how each way a run can end becomes
// a class.
#include <doctest/doctest.h>

#include "process.hpp"
#include "profile.hpp"
#include "results.hpp"
#include "sanitizer.hpp"
#include "secret.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace grading;
using nlohmann::json;

namespace {
const RubricBankConflicts kItem{"shared memory free of bank conflicts (Nsight Compute)", 1, 0.1};
const std::string kKey = "k3y";

// ncu's log of Lab 04's correct variant padded_32x4: the grader's probe, then two transposes.
std::string recorded_log() {
    std::ifstream in(std::string(COURSE_SOURCE_DIR) + "/autograder/tests/data/ncu_lab04_padded_32x4.log");
    std::stringstream s;
    s << in.rdbuf();
    REQUIRE_FALSE(s.str().empty());
    return s.str();
}

// Replaces field @p column of the data rows whose kernel name contains @p kernel by @p value.
std::string with_field(const std::string& log, const std::string& kernel, const std::string& metric, const std::string& value) {
    std::istringstream in(log);
    std::string line, out;
    std::size_t col = std::string::npos;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::string cur;
        bool q = false;
        for (char ch : line) {
            if (ch == '"') q = !q, cur += ch;
            else if (ch == ',' && !q) f.push_back(cur), cur.clear();
            else cur += ch;
        }
        f.push_back(cur);
        if (line.rfind("\"ID\",", 0) == 0)
            for (std::size_t i = 0; i < f.size(); ++i)
                if (f[i] == "\"" + metric + "\"") col = i;
        if (col != std::string::npos && col < f.size() && line.find(kernel) != std::string::npos && line.rfind("\"ID\",", 0) != 0) {
            f[col] = "\"" + value + "\"";
            line.clear();
            for (std::size_t i = 0; i < f.size(); ++i) line += (i ? "," : "") + f[i];
        }
        out += line + "\n";
    }
    return out;
}

// The elements the recorded workload transposed: 32 for each store wavefront its kernels made (the
// conflict-free variant stores each element once, a warp's 32 at a time).
double recorded_elements();

std::string records(bool passed = true, const std::string& key = kKey, double elements = recorded_elements()) {
    std::string out;
    json end = {{"event", "end"}, {"check", kProfileWorkload}, {"passed", passed},
                {"class", passed ? "pass" : "wrong_result"}, {"message", "1024x2048: 5 of 2097152 differ"}};
    if (elements > 0) end["value"] = elements;
    const json lines[] = {{{"event", "start"}, {"check", kProfileWorkload}}, end, {{"event", "done"}}};
    for (std::size_t i = 0; i < 3; ++i) {
        json j = lines[i];
        j["key"] = key;
        j["seq"] = i;
        out += j.dump() + "\n";
    }
    return out;
}

ProfileRun run(const std::string& log, int code = 0, const std::string& recs = records()) {
    ProfileRun r;
    r.outcome = {ProcessOutcome::Kind::Exited, code, 0, ""};
    r.log_text = log;
    r.log_path = "/tmp/lab04.ncu.log";
    r.records = recs;
    r.seconds = 2;
    return r;
}

const char* kLdWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

double recorded_elements() {
    double stores = 0;
    for (const auto& k : parse_ncu_csv(recorded_log()))
        if (k.kernel.rfind("lab04::", 0) == 0) stores += k.store_wavefronts;
    return 32 * stores;
}
const char* kLdConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
}  // namespace

TEST_CASE("ncu's raw CSV: one entry per kernel, in launch order, with thousands separators read") {
    const auto k = parse_ncu_csv(recorded_log());
    REQUIRE(k.size() == 3);
    CHECK(k[0].kernel == "grading::course_bank_conflict_probe(float *)");
    CHECK(k[1].kernel == "lab04::transpose_tile_kernel(const float *, float *, int, int)");
    // The probe: 8 blocks x 8 warps x 32 loads, two wavefronts each; 2048 words stored by each block.
    CHECK(k[0].load_wavefronts == doctest::Approx(2 * 8 * 8 * 32).epsilon(0.02));
    CHECK(conflict_share(k[0].load_conflicts, k[0].load_wavefronts) == doctest::Approx(0.5).epsilon(0.05));
    CHECK(k[0].store_conflicts == 0);
    // 1024 x 2048 floats through 32 x 32 tiles, one wavefront per warp-row: 2^21 / 32 of each.
    CHECK(k[1].store_wavefronts == 65536);
    CHECK(k[1].load_wavefronts >= 65536);
    CHECK_THROWS_WITH_AS(parse_ncu_csv("==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM\n"), "ncu wrote no report",
                         std::runtime_error);
    CHECK_THROWS_AS(parse_ncu_csv("\"ID\",\"Kernel Name\"\n\"0\",\"k\"\n"), std::runtime_error);  // no metric columns
}

TEST_CASE("a conflict-free transpose earns the point; its figures are reported") {
    const CheckResult c = judge_bank_conflicts(kItem, run(recorded_log()), kKey, 60, "lab04");
    CHECK(c.passed());
    CHECK(c.points == 1);
    REQUIRE(c.value);
    CHECK(*c.value < 0.02);
    CHECK(c.higher_is_better == false);
    REQUIRE_FALSE(c.notes.empty());
    CHECK(c.notes[0].find("2 kernel launch(es)") != std::string::npos);
    // Without the count of elements transposed there is nothing to measure against.
    CHECK(judge_bank_conflicts(kItem, run(recorded_log(), 0, records(true, kKey, 0)), kKey, 60, "lab04").cls ==
          Failure::GraderIntegrity);
}

TEST_CASE("conflict-free traffic added on purpose does not dilute the conflicts") {
    const std::string log = recorded_log();
    const auto k = parse_ncu_csv(log);
    // Half the needed load wavefronts replayed, hidden under ten times more conflict-free loads.
    const std::string half = std::to_string(static_cast<long long>(k[1].load_wavefronts / 2));
    const std::string lots = std::to_string(static_cast<long long>(k[1].load_wavefronts * 10));
    const std::string diluted = with_field(with_field(log, "(64, 32, 1)", kLdConflicts, half), "(64, 32, 1)", kLdWavefronts, lots);
    const CheckResult c = judge_bank_conflicts(kItem, run(diluted), kKey, 60, "lab04");
    CHECK(c.cls == Failure::TechniqueNotUsed);
    REQUIRE(c.value);
    CHECK(*c.value > 0.3);
}

TEST_CASE("conflicted loads or stores of the lab's kernels fail as technique_not_used, the probe's never count") {
    // Half of the first transpose's load wavefronts replayed, as a [32][34] tile gives.
    const std::string log = recorded_log();
    const auto k = parse_ncu_csv(log);
    const std::string half = std::to_string(static_cast<long long>(k[1].load_wavefronts / 2));
    const std::string conflicted = with_field(log, "(64, 32, 1)", kLdConflicts, half);
    CheckResult c = judge_bank_conflicts(kItem, run(conflicted), kKey, 60, "lab04");
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("loads took") != std::string::npos);
    CHECK(c.hint.find("kTile + 1") != std::string::npos);
    // The probe's own conflicts (50% of its loads) are never the lab's.
    CHECK(judge_bank_conflicts(kItem, run(log), kKey, 60, "lab04").passed());
    // Nothing staged in shared memory.
    std::string none = with_field(log, "transpose_tile_kernel", kLdWavefronts, "0");
    none = with_field(none, "transpose_tile_kernel", kLdConflicts, "0");
    none = with_field(none, "transpose_tile_kernel", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "0");
    c = judge_bank_conflicts(kItem, run(none), kKey, 60, "lab04");
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("no shared-memory access") != std::string::npos);
}

TEST_CASE("the probe decides whether the counters can be trusted; a lab cannot pose as it") {
    const std::string log = recorded_log();
    // No report at all (no permission to profile): not run, counted neither way.
    CheckResult c = judge_bank_conflicts(
        kItem, run("==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\n"), kKey, 60, "lab04");
    CHECK(c.skipped);
    CHECK(c.max_points == 0);
    CHECK(c.message.find("administrator") != std::string::npos);
    // The probe's loads read as conflict-free: these counters do not measure conflicts here.
    c = judge_bank_conflicts(kItem, run(with_field(log, "course_bank_conflict_probe", kLdConflicts, "0")), kKey, 60, "lab04");
    CHECK(c.skipped);
    // A lab kernel named like the probe, in the lab's namespace, is the lab's: the probe then appears once.
    std::string posing = std::regex_replace(log, std::regex("lab04::transpose_tile_kernel"),
                                            "lab04::grading::course_bank_conflict_probe");
    c = judge_bank_conflicts(kItem, run(posing), kKey, 60, "lab04");
    CHECK(c.passed());
    CHECK(c.notes[0].find("2 kernel launch(es)") != std::string::npos);
    // ncu's own exit status may report the missing counters: a faithful workload is still skipped, not failed.
    c = judge_bank_conflicts(kItem, run("==ERROR== ERR_NVGPUCTRPERM\n", 1), kKey, 60, "lab04");
    CHECK(c.skipped);
    // The probe launched again by the lab (to turn a failure into "not run"): grader_integrity.
    const std::string two_probes = std::regex_replace(log, std::regex("lab04::transpose_tile_kernel"),
                                                      "grading::course_bank_conflict_probe");
    c = judge_bank_conflicts(kItem, run(two_probes), kKey, 60, "lab04");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK_FALSE(c.skipped);
    // A kernel that is not the lab's (a grader's or a library's, reached some other way): grader_integrity.
    const std::string foreign = std::regex_replace(log, std::regex("lab04::transpose_tile_kernel"), "lab03::baseline::naive_kernel");
    c = judge_bank_conflicts(kItem, run(foreign), kKey, 60, "lab04");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK(c.message.find("outside namespace lab04") != std::string::npos);
    // With the counters shown to work, a launch ncu could not profile, or a row that cannot be read, is a
    // measurement missing: grader_integrity, never a skip.
    c = judge_bank_conflicts(kItem, run(log + "==ERROR== Failed to profile \"lab04::transpose_tile_kernel\"\n"), kKey, 60, "lab04");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK(c.message.find("Failed to profile") != std::string::npos);
    c = judge_bank_conflicts(kItem, run(log + "\"9\",\"1\",\"torn row\"\n"), kKey, 60, "lab04");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK(c.message.find("cannot be read") != std::string::npos);
    // A workload that failed fails the item with its class, whether or not the counters could be read.
    c = judge_bank_conflicts(kItem, run("==ERROR== ERR_NVGPUCTRPERM\n", 1, records(false)), kKey, 60, "lab04");
    CHECK(c.cls == Failure::WrongResult);
    CHECK_FALSE(c.skipped);
    // But without a faithful run of the workload, a missing probe is no excuse.
    c = judge_bank_conflicts(kItem, run("no report\n", 0, records(true, "forged")), kKey, 60, "lab04");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK_FALSE(c.skipped);
}

TEST_CASE("kernels are told apart by their mangled names, which always carry the namespace") {
    // The runner asks ncu for mangled names (--print-kernel-base mangled): demangled, ncu has been seen
    // to drop the namespace ("course_bank_conflict_probe(float *)").
    std::string mangled = std::regex_replace(recorded_log(), std::regex("grading::course_bank_conflict_probe\\(float \\*\\)"),
                                             "_ZN7grading26course_bank_conflict_probeEPf");
    mangled = std::regex_replace(mangled, std::regex("lab04::transpose_tile_kernel\\(const float \\*, float \\*, int, int\\)"),
                                 "_ZN5lab0421transpose_tile_kernelEPKfPfii");
    REQUIRE(mangled.find("_ZN5lab04") != std::string::npos);
    CheckResult c = judge_bank_conflicts(kItem, run(mangled), kKey, 60, "lab04");
    CHECK(c.passed());
    CHECK(c.notes[1].find("lab04::transpose_tile_kernel(float const*, float*, int, int)") != std::string::npos);
    // A kernel of another namespace, mangled: not the lab's.
    const std::string other = std::regex_replace(mangled, std::regex("_ZN5lab0421"), "_ZN5lab0321");
    CHECK(judge_bank_conflicts(kItem, run(other), kKey, 60, "lab04").cls == Failure::GraderIntegrity);
    // The probe's name without its namespace is not the probe's.
    const std::string stripped = std::regex_replace(recorded_log(), std::regex("grading::course_bank_conflict_probe"),
                                                    "course_bank_conflict_probe");
    CHECK(judge_bank_conflicts(kItem, run(stripped), kKey, 60, "lab04").skipped);
}

TEST_CASE("how the profiled workload ended comes first") {
    ProfileRun r = run(recorded_log());
    r.outcome = {ProcessOutcome::Kind::TimedOut, 0, 60, ""};
    CHECK(judge_bank_conflicts(kItem, r, kKey, 60, "lab04").cls == Failure::Timeout);
    r.outcome = {ProcessOutcome::Kind::Signaled, 11, 0, ""};
    CHECK(judge_bank_conflicts(kItem, r, kKey, 60, "lab04").cls == Failure::Crash);
    // The workload's own exact check failed: its class, whatever the counters say.
    const CheckResult c = judge_bank_conflicts(kItem, run(recorded_log(), 1, records(false)), kKey, 60, "lab04");
    CHECK(c.cls == Failure::WrongResult);
    CHECK(c.message.find("5 of 2097152") != std::string::npos);
    // Records under another key are not the workload's.
    CHECK(judge_bank_conflicts(kItem, run(recorded_log(), 0, records(true, "other")), kKey, 60, "lab04").cls ==
          Failure::GraderIntegrity);
}

TEST_CASE("a conflict-free profile earns its point only alongside working code") {
    CheckResult c = judge_bank_conflicts(kItem, run(recorded_log()), kKey, 60, "lab04");
    CheckResult wrong;
    wrong.name = "exact transpose of 1x1, 1xN and Nx1 matrices";
    wrong.cls = Failure::WrongResult;
    require_working_code(c, {wrong}, "no bank conflicts were measured");
    CHECK(c.cls == Failure::NotRun);
    CHECK(c.points == 0);
    CHECK(c.message.find("no bank conflicts were measured") == 0);
}

TEST_CASE("the rubric's bank-conflict item") {
    const Rubric r = load_rubric(RUBRIC_PATH);
    const RubricLab* lab = r.find("04");
    REQUIRE(lab);
    REQUIRE(lab->bank_conflicts);
    CHECK(lab->bank_conflicts->max_share == doctest::Approx(0.4));
    json bad = json::parse(R"({"labs": [{"id": "04", "dir": "04-x", "title": "T",
        "checks": [{"name": "a", "points": 1}],
        "bank_conflicts": {"name": "b", "points": 1, "max_share": 0.7}}]})");
    CHECK_THROWS_AS(parse_rubric(bad), std::runtime_error);
    bad["labs"][0]["bank_conflicts"]["max_share"] = 0.1;
    bad["labs"][0]["bank_conflicts"]["name"] = "a";
    CHECK_THROWS_AS(parse_rubric(bad), std::runtime_error);  // the same name as a check
}

TEST_CASE("the instructor's secret: SipHash-2-4, and only a per-run value of it reaches a lab") {
    // The reference vector of SipHash-2-4: key 00 01 .. 0f, message 00 01 .. 0e.
    std::string message;
    for (int i = 0; i < 15; ++i) message += static_cast<char>(i);
    CHECK(siphash24(0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, message) == 0xa129ca6149be45e5ULL);
    CHECK(siphash24(0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, "") == 0x726fdb47dd0e0e31ULL);
    // Each run's value depends on the seed and on every byte of the secret.
    const std::string secret = "an instructor's secret";
    CHECK(secret_for_run(secret, 1) == secret_for_run(secret, 1));
    CHECK(secret_for_run(secret, 1) != secret_for_run(secret, 2));
    CHECK(secret_for_run(secret, 1) != secret_for_run("an instructor's secreT", 1));
    CHECK(secret_line(0xabcULL) == "secret 0000000000000abc\n");
}
