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
#include <map>
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

// The workload's start, @p end and done records, as its channel carries them under @p key.
std::string workload_records(const json& end, const std::string& key = kKey) {
    std::string out;
    const json lines[] = {{{"event", "start"}, {"check", kProfileWorkload}}, end, {{"event", "done"}}};
    for (std::size_t i = 0; i < 3; ++i) {
        json j = lines[i];
        j["key"] = key;
        j["seq"] = i;
        out += j.dump() + "\n";
    }
    return out;
}

std::string records(bool passed = true, const std::string& key = kKey, double elements = recorded_elements()) {
    json end = {{"event", "end"}, {"check", kProfileWorkload}, {"passed", passed},
                {"class", passed ? "pass" : "wrong_result"}, {"message", "1024x2048: 5 of 2097152 differ"}};
    if (elements > 0) end["value"] = elements;
    return workload_records(end, key);
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
    CHECK(c.message.find("the most in lab04::transpose_tile_kernel") != std::string::npos);  // where
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
    // Where the lab's code runs in the check program (this report), a kernel outside the lab's namespace is
    // the grader's (its inputs, references, verification) and not judged: the lab's work then is missing.
    const std::string foreign = std::regex_replace(log, std::regex("lab04::transpose_tile_kernel"), "lab03::baseline::naive_kernel");
    c = judge_bank_conflicts(kItem, run(foreign), kKey, 60, "lab04");
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("no shared-memory access") != std::string::npos);
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
    // A kernel of another namespace, mangled: not the lab's (in this report, where the lab's code ran in
    // the check program, the grader's), so the lab's work is missing.
    const std::string other = std::regex_replace(mangled, std::regex("_ZN5lab0421"), "_ZN5lab0321");
    CHECK(judge_bank_conflicts(kItem, run(other), kKey, 60, "lab04").cls == Failure::TechniqueNotUsed);
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

// --- The shared-memory-use check ----------------------------------------------------------------------

namespace {
// A report as ncu writes it with the runner's metrics: a header of every metric, a units row, then one
// row a launch with the metrics given (every other one 0). A kernel named "probe" is the grader's (its
// counts read true); the others are Lab 01's.
struct Launch {
    std::string kernel;
    std::map<std::string, double> m;
};
std::string report(const std::vector<Launch>& launches) {
    std::vector<std::string> metrics;
    std::istringstream all(profile_metrics());
    for (std::string m; std::getline(all, m, ',');) metrics.push_back(m);
    auto quoted = [](const std::string& v) { return "\"" + v + "\""; };
    std::string out = "==PROF== Connected to process 1\n\"ID\",\"Process ID\",\"Process Name\",\"Kernel Name\"";
    for (const auto& m : metrics) out += "," + quoted(m);
    out += "\n\"\",\"\",\"\",\"\"";
    for (std::size_t i = 0; i < metrics.size(); ++i) out += ",\"\"";
    out += "\n";
    int id = 0;
    bool first_probe = true;
    for (const auto& l : launches) {
        std::map<std::string, double> m = l.m;
        std::string name = l.kernel;
        // The lab's code runs in its launch host; the grader's kernels in the check program, but for the
        // probes after the first: the launch host runs those, after each call.
        std::string process = name.rfind("_ZN5lab01", 0) == 0 || name.rfind("_ZN3cub", 0) == 0 ? "lab01_solution_host"
                                                                                            : "lab01_solution";
        if (name == "probe" && !first_probe) process = "lab01_solution_host";
        if (name == "probe") first_probe = false;
        if (name == "probe") {
            name = "_ZN7grading26course_bank_conflict_probeEPf";
            m = {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 4096},
                 {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 2048},
                 {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 512},
                 {"smsp__warps_launched.sum", 64}};
        }
        out += quoted(std::to_string(id++)) + ",\"1\"," + quoted(process) + "," + quoted(name);
        for (const auto& metric : metrics) out += "," + quoted(std::to_string(static_cast<long long>(m[metric])));
        out += "\n";
    }
    return out;
}

// A reduction launch of @p warps warps in blocks of 8: @p writes global writes, @p stores shared stores.
Launch reduction(const std::string& name, double warps, double writes, double stores) {
    return {name,
            {{"smsp__warps_launched.sum", warps},
             {"sm__ctas_launched.sum", warps / 8},
             {"smsp__sass_inst_executed_op_global_red.sum", writes},
             {"smsp__sass_inst_executed_op_shared_st.sum", stores},
             {"smsp__sass_inst_executed_op_shared_ld.sum", warps / 8}}};
}

// The workload's records, its calls named as profile_call_done() names them (with @p facts for each).
std::string profile_records(const std::vector<std::string>& calls, const std::vector<json>& facts = {}) {
    json end = {{"event", "end"}, {"check", kProfileWorkload}, {"passed", true}, {"class", "pass"}, {"message", ""}};
    for (std::size_t i = 0; i < calls.size(); ++i)
        end["calls"].push_back({{"what", calls[i]}, {"facts", i < facts.size() ? facts[i] : json::object()}});
    return workload_records(end);
}

// Lab 01's item, as its rubric states it.
RubricSharedUse lab01_item() {
    const Rubric r = load_rubric(RUBRIC_PATH);
    const RubricLab* lab = r.find("01");
    REQUIRE(lab);
    REQUIRE(lab->shared_use);
    return *lab->shared_use;
}

const std::string kSmall = "sum_reduce(n = 4194307)";
const std::string kBench = "sum_reduce(n = 268435456)";
const char* kBlockSum = "_ZN5lab0116block_sum_kernelEPKfPfm";
const char* kFinish = "_ZN5lab0113finish_kernelEPfS0_m";

CheckResult judge_launches(const std::vector<Launch>& launches, const std::vector<std::string>& calls = {kSmall, kBench}) {
    return judge_shared_use(lab01_item(), run(report(launches), 0, profile_records(calls)), kKey, 60, "lab01");
}
}  // namespace

TEST_CASE("shared-memory use: a block reduction through shared memory passes, at every call") {
    // 8 warps a block: each warp stores its partial, one atomic a block; a finishing launch of one warp.
    const CheckResult c = judge_launches({{"probe"},
                                          reduction(kBlockSum, 8192, 1024, 8192),
                                          {"probe"},
                                          reduction(kBlockSum, 65536, 8192, 65536),
                                          reduction(kFinish, 1, 1, 0),
                                          {"probe"}});
    CHECK(c.passed());
    CHECK(c.points == 1);
    REQUIRE(c.notes.size() == 2);
    CHECK(c.notes[0].find(kSmall) == 0);
    CHECK(c.notes[1].find("2 launch(es)") != std::string::npos);
}

TEST_CASE("shared-memory use: ncu may list the launch host's launches before the check program's") {
    const std::string listed = report({{"probe"},
                                       reduction(kBlockSum, 8192, 1024, 8192),
                                       {"probe"},
                                       reduction(kBlockSum, 65536, 8192, 65536),
                                       {"probe"}});
    // The check program's rows (its probe, the first) moved after the launch host's, each process's kept in order.
    std::istringstream lines(listed);
    std::string head, check_rows, host_rows;
    for (std::string line; std::getline(lines, line);) {
        if (line.find("\"lab01_solution\"") != std::string::npos) check_rows += line + "\n";
        else if (line.find("\"lab01_solution_host\"") != std::string::npos) host_rows += line + "\n";
        else head += line + "\n";
    }
    REQUIRE(!check_rows.empty());
    REQUIRE(!host_rows.empty());
    const CheckResult c =
        judge_shared_use(lab01_item(), run(head + host_rows + check_rows, 0, profile_records({kSmall, kBench})), kKey, 60, "lab01");
    CHECK(c.passed());
    REQUIRE(c.notes.size() == 2);
    CHECK(c.notes[0].find(kSmall) == 0);
}

TEST_CASE("shared-memory use: warps combined through global memory, or a token __shared__, fail as technique_not_used") {
    // Shuffles within each warp, then one atomic a warp, with a token shared store a block.
    CheckResult c = judge_launches({{"probe"},
                                    reduction(kBlockSum, 8192, 1024, 8192),
                                    {"probe"},
                                    reduction(kBlockSum, 65536, 65536, 8192),
                                    {"probe"}});
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find(kBench) != std::string::npos);  // named by the call: the benchmark's size only
    CHECK(c.message.find("global-memory store") != std::string::npos);
    CHECK(c.hint.find("shared memory") != std::string::npos);
    // One-warp blocks with an atomic each and a token store: one global write a warp.
    c = judge_launches({{"probe"}, reduction(kBlockSum, 8192, 8192, 8192), {"probe"}, reduction(kBlockSum, 65536, 1024, 65536), {"probe"}});
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find(kSmall) != std::string::npos);
    // Partials combined in global memory by a second launch, shared memory touched once a block.
    c = judge_launches({{"probe"},
                        reduction(kBlockSum, 8192, 1024, 8192),
                        {"probe"},
                        reduction(kBlockSum, 65536, 8192, 8192),
                        {"probe"}});
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("shared-memory store") != std::string::npos);
    // The grader's own launches (inputs, references, verification, in the check program) are not judged.
    c = judge_launches({{"probe"}, reduction("_ZN6course4fillEPfm", 8192, 8192, 0), reduction(kBlockSum, 8192, 1024, 8192),
                        {"probe"}, reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    CHECK(c.passed());
    // A launch too small to judge (the last step of a reduction) is not judged.
    c = judge_launches({{"probe"}, reduction(kBlockSum, 8192, 1024, 8192), reduction(kFinish, 63, 63, 0), {"probe"},
                        reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    CHECK(c.passed());
}

TEST_CASE("shared-memory use: a call with no launch of the lab's, or probes the workload did not make, is never a pass") {
    // The work done without a kernel of the lab's (on the host, or by a library): technique_not_used.
    CheckResult c = judge_launches({{"probe"}, reduction(kBlockSum, 8192, 1024, 8192), {"probe"}, {"probe"}});
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("no kernel of yours ran during " + kBench) != std::string::npos);
    // A probe more or less than the workload's calls: the report is not the workload's.
    c = judge_launches({{"probe"}, reduction(kBlockSum, 8192, 1024, 8192), {"probe"}});
    CHECK(c.cls == Failure::GraderIntegrity);
    c = judge_launches({{"probe"}, reduction(kBlockSum, 8192, 1024, 8192), {"probe"}, {"probe"}, reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    CHECK(c.cls == Failure::GraderIntegrity);
    // A launch of the lab's before the grader's first probe, where the lab's code runs in the check program:
    // the listing of one process is in launch order. (A launch host's launches are listed as a whole, apart
    // from the check program's: each is counted in the call it belongs to.)
    const std::string early = report({reduction(kBlockSum, 8, 1, 8), {"probe"}, reduction(kBlockSum, 8192, 1024, 8192),
                                      {"probe"}, reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    c = judge_shared_use(lab01_item(),
                         run(std::regex_replace(early, std::regex("lab01_solution_host"), "lab01_solution"), 0,
                             profile_records({kSmall, kBench})),
                         kKey, 60, "lab01");
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK(c.message.find("a kernel ran before the grader's probe") != std::string::npos);
    c = judge_shared_use(lab01_item(), run(early, 0, profile_records({kSmall, kBench})), kKey, 60, "lab01");
    CHECK(c.passed());
    c = judge_launches({{"probe"}, reduction("_ZN3cub6kernelEv", 8192, 1024, 8192), {"probe"},
                        reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    CHECK(c.cls == Failure::GraderIntegrity);
    CHECK(c.message.find("outside namespace lab01") != std::string::npos);
    // A metric the rules need missing from the report (an older ncu): a measurement missing, not a pass.
    std::string partial = report({{"probe"}, reduction(kBlockSum, 8192, 1024, 8192), {"probe"},
                                  reduction(kBlockSum, 65536, 8192, 65536), {"probe"}});
    partial = std::regex_replace(partial, std::regex("smsp__sass_inst_executed_op_global_red.sum"), "other__metric.sum");
    c = judge_shared_use(lab01_item(), run(partial, 0, profile_records({kSmall, kBench})), kKey, 60, "lab01");
    CHECK(c.cls == Failure::GraderIntegrity);
    // The counters unreadable here (no permission): not run, counted neither way.
    c = judge_shared_use(lab01_item(), run("==ERROR== ERR_NVGPUCTRPERM\n", 1, profile_records({kSmall, kBench})), kKey, 60, "lab01");
    CHECK(c.skipped);
}

TEST_CASE("shared-memory use: the quantities sum their metrics, and HFMA2.MMA is not a tensor-core instruction") {
    KernelCounts k;
    k.metrics = {{"sm__inst_executed_pipe_tensor.sum", 40},
                 {"sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum", 32},
                 {"smsp__sass_data_bytes_mem_shared_op_st.sum", 100},
                 {"smsp__sass_data_bytes_mem_global_op_ldgsts.sum", 20},
                 {"l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", 3}};
    CHECK(k.quantity("tensor_instructions") == 8);
    CHECK(k.quantity("staged_bytes") == 123);
    CHECK_FALSE(k.quantity("warps"));       // not in the report
    CHECK_FALSE(k.quantity("no_such_one"));  // not a quantity
    // Every rule of every lab names quantities the check knows, and every metric is asked of ncu.
    const Rubric r = load_rubric(RUBRIC_PATH);
    int labs = 0;
    for (const auto& lab : r.labs) {
        if (!lab.shared_use) continue;
        ++labs;
        for (const auto& rule : lab.shared_use->rules)
            for (const std::string& q : {rule.measure, rule.of}) {
                bool known = false;
                for (const auto& p : profile_quantities()) known = known || q == p.name;
                CHECK_MESSAGE(known, "lab " << lab.id << " names " << q);
            }
    }
    CHECK(labs == static_cast<int>(r.labs.size()));  // every lab has one
    json bad = json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "T",
        "checks": [{"name": "a", "points": 1}],
        "shared_memory_use": {"name": "u", "points": 1, "rules": [{"measure": "warps", "of": "warps"}]}}]})");
    CHECK_THROWS_AS(parse_rubric(bad), std::runtime_error);  // neither at_least nor at_most
    bad["labs"][0]["shared_memory_use"]["rules"] = json::array();
    CHECK_THROWS_AS(parse_rubric(bad), std::runtime_error);  // no rule
}

TEST_CASE("shared-memory use: a ratio the workload states for each call (Lab 06's wavefronts a load)") {
    const Rubric r = load_rubric(RUBRIC_PATH);
    const RubricLab* lab = r.find("06");
    REQUIRE(lab);
    REQUIRE(lab->shared_use);
    const RubricSharedUse& item = *lab->shared_use;
    REQUIRE(item.rules.size() == 1);
    CHECK(item.rules[0].near_fact == "wavefronts");
    // strided_loads at stride 1 and 4 (4-byte words): 1 and 4 wavefronts a load; in process (Lab 06).
    const auto loads = [](double wavefronts_a_load) {
        return Launch{"_ZN5lab0619strided_load_kernelIfEEviPf",
                      {{"smsp__warps_launched.sum", 4224},
                       {"smsp__sass_inst_executed_op_shared_ld.sum", 1e6},
                       {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1e6 * wavefronts_a_load}}};
    };
    const std::vector<std::string> calls = {"strided_loads(stride = 1, word_bytes = 4)", "strided_loads(stride = 4, word_bytes = 4)"};
    const std::vector<json> facts = {{{"wavefronts", 1}}, {{"wavefronts", 4}}};
    const auto judge = [&](double at1, double at4, const std::vector<json>& f) {
        std::string log = report({{"probe"}, loads(at1), {"probe"}, loads(at4), {"probe"}});
        log = std::regex_replace(log, std::regex("lab01_solution(_host)?"), "lab06_solution");  // in process
        return judge_shared_use(item, run(log, 0, profile_records(calls, f)), kKey, 60, "lab06");
    };
    CHECK(judge(1.0, 4.1, facts).passed());
    // A curve of repeated conflict-free loads: one wavefront a load at every stride.
    CheckResult c = judge(1.0, 1.0, facts);
    CHECK(c.cls == Failure::TechniqueNotUsed);
    CHECK(c.message.find("stride = 4") != std::string::npos);
    CHECK(c.hint.find("bank conflicts") != std::string::npos);
    // Too many wavefronts is as wrong as too few.
    CHECK(judge(1.0, 6.0, facts).cls == Failure::TechniqueNotUsed);
    // A call whose fact the workload did not state cannot be judged: grader_integrity, never a pass.
    CHECK(judge(1.0, 4.0, {facts[0]}).cls == Failure::GraderIntegrity);
}
