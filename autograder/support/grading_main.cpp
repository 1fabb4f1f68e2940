// The main() of every lab's check program, and the doctest listener that streams classified
// results to the runner (see grading.hpp).
//
//   labNN_<tree> [--seed N] [--report-fd FD] [--artifacts DIR] [--quick] [doctest options]
//
// Records go to the file descriptor the runner opened for them (--report-fd), never to a file or to
// standard output. Each carries the key the runner wrote to standard input (read at the start of
// main, never in the environment) and a sequence number, and the last record says the run finished;
// the runner believes nothing else (see results.hpp).
//   labNN_<tree> --plan          print the checks as JSON, each {"name", "measured"} (no GPU needed)
//   labNN_<tree> --pass exact    run only the checks that do not need the GPU to themselves (the runner
//                                runs them under its GPU lock taken shared)
//   labNN_<tree> --pass measured run only doctest test suite "measured": the checks that time, or whose
//                                inputs are sized by the GPU's memory; the GPU's performance monitors are
//                                sampled only here
//     --gpu-lock PATH            (with --pass measured) the runner hands its GPU lock over: this program
//                                holds it shared, and alone only around what it times or sizes by the
//                                GPU's free memory (GpuAlone); its records say for how long
//   labNN_<tree> --cpu-only      run only the checks in doctest test suite "cpu" (no GPU needed)
//   labNN_<tree> --thresholds    print each check's threshold as JSON {"check": value, ...} (no GPU needed)
//   labNN_<tree> --sanitizer-workload
//                                run only doctest test suite "sanitizer": the lab's code at small sizes on
//                                exact-size buffers, for the runner to run under compute-sanitizer
//   labNN_<tree> --profile-workload
//                                launch the grader's probe kernel, then run only doctest test suite "profile":
//                                the lab's code, for the runner to profile with Nsight Compute
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "gpu_lock.hpp"
#include "grading.hpp"
#include "isolation.hpp"
#include "timed_counters.hpp"
#include "whereabouts.hpp"
#include "profile_probe.hpp"
#include "workload_arg.hpp"

#include "cuda_check.hpp"
#include "random.hpp"

#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace grading {
namespace {

// The doctest suite of the checks that need the GPU to themselves (--pass measured).
constexpr const char* kMeasuredSuite = "measured";

struct CheckRecord {
    std::string name;
    Failure cls = Failure::None;
    std::string message;
    std::string hint;
    std::optional<double> value;
    double threshold = 0.0;
    std::string unit;
    bool higher_is_better = true;
    std::vector<std::string> notes;
    std::map<std::string, std::string> workload;  // handed to the workload runs (hand_to_workloads)
    nlohmann::json calls = nlohmann::json::array();  // the profile workload's calls (profile_call_done)
    double alone_seconds = 0.0;  // with the GPU to this program alone (GpuAlone)
};

struct State {
    std::uint64_t seed = 0;
    bool quick = false;
    int report_fd = -1;
    std::string report_key;
    std::optional<std::uint64_t> secret;  // the instructor's, from the runner's second line of stdin
    std::uint64_t sequence = 0;
    std::string artifacts = ".";
    std::optional<course::DeviceInfo> device;
    CheckRecord current;
    std::map<std::string, std::string> workload_args;  // --workload-arg name=value
    std::string workload_tool;                         // --workload-tool
    std::size_t free_at_start = 0;  // GPU memory free before any student code ran
    // The GPU lock, where the runner handed it over (--gpu-lock): held shared, alone inside GpuAlone.
    std::unique_ptr<GpuShare> gpu;
    int alone_depth = 0;
    std::chrono::steady_clock::time_point alone_since;
    double alone_total = 0.0;
    double alone_waited = 0.0;  // how long the current GpuAlone waited for the lock and the monitors
} g;

void emit(nlohmann::json line) {
    if (g.report_fd < 0) return;
    line["key"] = g.report_key;
    line["seq"] = g.sequence++;
    const std::string text = line.dump() + "\n";
    // One write a record, unbuffered: the process may die next, and what was learnt must already be sent.
    std::size_t sent = 0;
    while (sent < text.size()) {
        const ssize_t w = ::write(g.report_fd, text.data() + sent, text.size() - sent);
        if (w <= 0) break;
        sent += static_cast<std::size_t>(w);
    }
}

// Runs @p change of the GPU lock between two gpu_wait records: the runner leaves the time between them out
// of the pass's time limit (another grading's work is not this program's time).
template <class Change>
void waiting_for_gpu(Change&& change) {
    const whereabouts::Doing doing("waiting for the GPU lock (another grading's work, or its measurement)");
    emit({{"event", "gpu_wait"}, {"state", "begin"}});
    change();
    emit({{"event", "gpu_wait"}, {"state", "end"}});
}

nlohmann::json end_record(bool passed, double seconds) {
    nlohmann::json j = {{"event", "end"},
                        {"check", g.current.name},
                        {"passed", passed},
                        {"class", std::string(to_string(g.current.cls))},
                        {"message", g.current.message},
                        {"hint", g.current.hint},
                        {"notes", g.current.notes},
                        {"seconds", seconds}};
    if (!g.current.workload.empty()) j["workload"] = g.current.workload;
    if (!g.current.calls.empty()) j["calls"] = g.current.calls;
    if (g.gpu) j["alone_seconds"] = g.current.alone_seconds;
    if (g.current.value) {
        j["value"] = *g.current.value;
        j["threshold"] = g.current.threshold;
        j["unit"] = g.current.unit;
        j["higher_is_better"] = g.current.higher_is_better;
    }
    return j;
}

// Streams one "start" and one "end" line per test case. Listeners see every event whatever
// reporter prints to the console.
struct ReportListener : public doctest::IReporter {
    explicit ReportListener(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData& tc) override {
        g.current = CheckRecord{};
        g.current.name = tc.m_name;
        whereabouts::set_check(g.current.name);
        emit({{"event", "start"}, {"check", g.current.name}});
    }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats& st) override {
        const bool passed = st.testCaseSuccess && g.current.cls == Failure::None;
        if (!passed && g.current.cls == Failure::None) {
            // A plain doctest assertion failed without a classification: that is a wrong result.
            g.current.cls = Failure::WrongResult;
            if (g.current.message.empty()) g.current.message = "an assertion of this check failed (see the log)";
        }
        if (g.gpu && g.current.alone_seconds > 0)
            g.current.notes.push_back("with the GPU to this grading alone for " + fixed(g.current.alone_seconds, 1) + " s of "
                                      "this check's " + fixed(st.seconds, 1) + " s (the rest ran beside other gradings' work)");
        emit(end_record(passed, st.seconds));
    }
    void test_case_exception(const doctest::TestCaseException& e) override {
        if (g.current.cls == Failure::None) {
            g.current.cls = Failure::Crash;
            g.current.message = std::string("uncaught exception: ") + e.error_string.c_str();
            g.current.hint = std::string(default_hint(Failure::Crash));
        }
    }
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData& a) override {
        if (a.m_failed && g.current.message.empty()) {
            g.current.message = std::string(a.m_expr) + " failed: " + a.m_decomp.c_str();
        }
    }
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("grading-report", 1, ReportListener);

// `--plan`: prints every check as a JSON array on stdout: its name, and whether it is in the measured pass.
struct PlanReporter : public doctest::IReporter {
    std::ostream& out;
    explicit PlanReporter(const doctest::ContextOptions& o) : out(*o.cout) {}
    void report_query(const doctest::QueryData& q) override {
        nlohmann::json checks = nlohmann::json::array();
        for (unsigned i = 0; i < q.num_data; ++i)
            checks.push_back({{"name", q.data[i]->m_name},
                              {"measured", std::string(q.data[i]->m_test_suite) == kMeasuredSuite}});
        if (q.data) out << checks.dump(2) << std::endl;
    }
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override {}
    void test_case_start(const doctest::TestCaseData&) override {}
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_REPORTER("plan", 1, PlanReporter);

}  // namespace

namespace {
std::vector<std::pair<std::string, double>>& threshold_table() {
    static std::vector<std::pair<std::string, double>> t;  // filled during static initialisation
    return t;
}
}  // namespace
ThresholdRegistration::ThresholdRegistration(const char* check, double value) { threshold_table().emplace_back(check, value); }
const std::vector<std::pair<std::string, double>>& registered_thresholds() { return threshold_table(); }

std::uint64_t run_seed() { return g.seed; }
std::string artifact_path(const std::string& name) { return g.artifacts + "/" + name; }
std::uint64_t seed_for(const std::string& tag, std::uint64_t salt) {
    // A keyed pseudo-random function of (tag, salt), its 128-bit key drawn from the run's seed (and the
    // instructor's secret): the seeds of one check's calls (salt: the call) give nothing away about each
    // other. hash64's finaliser is invertible, so a seed derived with it alone could be recovered from one
    // call's values and the next call's predicted from it (Lab 02 attack45_inputs_predicted_from_the_gate_call).
    const std::uint64_t base = g.secret ? course::hash64(g.seed, *g.secret) : g.seed;
    std::string message = tag;
    for (int b = 0; b < 8; ++b) message += static_cast<char>((salt >> (8 * b)) & 0xff);
    return course::keyed_hash64(course::hash64(base, 0x5eed0), course::hash64(base, 0x5eed1), message);
}
bool has_secret() { return g.secret.has_value(); }
std::vector<std::size_t> with_hidden(std::vector<std::size_t> sizes, const std::string& tag, int count, std::size_t lo,
                                     std::size_t hi) {
    const auto hidden = hidden_sizes(tag, count, static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
    sizes.insert(sizes.empty() ? sizes.end() : sizes.end() - 1, hidden.begin(), hidden.end());
    return sizes;
}
std::vector<std::size_t> with_random(std::vector<std::size_t> sizes, const std::string& tag, int count, std::size_t lo,
                                     std::size_t hi) {
    if (hi < lo) return sizes;
    std::vector<std::size_t> drawn;
    for (int i = 0; i < count; ++i)
        drawn.push_back(lo + static_cast<std::size_t>(seed_for("random-sizes:" + tag, static_cast<std::uint64_t>(i)) %
                                                      (static_cast<std::uint64_t>(hi - lo) + 1)));
    sizes.insert(sizes.empty() ? sizes.end() : sizes.end() - 1, drawn.begin(), drawn.end());
    return sizes;
}
std::vector<std::int64_t> hidden_sizes(const std::string& tag, int count, std::int64_t lo, std::int64_t hi) {
    std::vector<std::int64_t> out;
    if (!g.secret || hi < lo) return out;
    const std::uint64_t base = course::derive_seed(course::hash64(*g.secret, g.seed), "hidden-sizes:" + tag, 0);
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    for (int i = 0; i < count; ++i) out.push_back(lo + static_cast<std::int64_t>(course::hash64(base, i) % span));
    return out;
}
const course::DeviceInfo& device() { return *g.device; }
bool fitted_at_start(std::size_t bytes) { return g.free_at_start >= bytes; }
bool quick() { return g.quick; }

GpuAlone::GpuAlone() {
    if (!g.gpu || g.alone_depth++ > 0) return;
    // This program's own work queued so far ends before the lock changes hands (an error surfaces at the
    // next call that checks).
    cudaDeviceSynchronize();
    const auto asked = std::chrono::steady_clock::now();
    waiting_for_gpu([] { g.gpu->alone(); });
    timed_counters::take_back();
    g.alone_since = std::chrono::steady_clock::now();
    g.alone_waited = std::chrono::duration<double>(g.alone_since - asked).count();
}

GpuAlone::~GpuAlone() {
    if (!g.gpu || --g.alone_depth > 0) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - g.alone_since).count();
    g.alone_total += s;
    g.current.alone_seconds += s;
    std::printf("the GPU alone for %.2f s (after %.2f s waiting for it and taking the performance monitors)\n", s,
                g.alone_waited);
    std::fflush(stdout);
    timed_counters::give_back();
    cudaDeviceSynchronize();  // nothing of this program's runs beside the next one alone
    try {
        waiting_for_gpu([] { g.gpu->share(); });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "grader error: %s\n", e.what());
        isolation::end_hosts();
        std::abort();
    }
}

bool current_check_failed() { return g.current.cls != Failure::None; }
std::optional<RecordedFailure> current_failure() {
    if (g.current.cls == Failure::None) return std::nullopt;
    return RecordedFailure{g.current.cls, g.current.message, g.current.hint};
}

void fail(Failure cls, const std::string& message, const std::string& hint) {
    if (g.current.cls == Failure::None || static_cast<int>(cls) < static_cast<int>(g.current.cls)) {
        g.current.cls = cls;
        g.current.message = message;
        g.current.hint = hint.empty() ? std::string(default_hint(cls)) : hint;
    } else {
        g.current.notes.push_back("also: " + std::string(to_string(cls)) + ": " + message);
    }
    const std::string text = std::string(to_string(cls)) + ": " + message;
    FAIL_CHECK(text);
}

void measured(double value, double threshold, const std::string& unit, bool higher_is_better) {
    g.current.value = value;
    g.current.threshold = threshold;
    g.current.unit = unit;
    g.current.higher_is_better = higher_is_better;
}

void note(const std::string& line) {
    g.current.notes.push_back(line);
    MESSAGE(line);
}

void hand_to_workloads(const std::string& name, const std::string& value) {
    if (!workload_arg_allowed(name, value))
        throw std::invalid_argument("hand_to_workloads: malformed name or value \"" + name + "\"");
    g.current.workload[name] = value;
}

std::optional<std::string> workload_arg(const std::string& name) {
    const auto it = g.workload_args.find(name);
    if (it == g.workload_args.end()) return std::nullopt;
    return it->second;
}

const std::string& workload_tool() { return g.workload_tool; }

void profile_call_done(const std::string& what, const std::map<std::string, double>& facts) {
    CUDA_CHECK(cudaDeviceSynchronize());
    // Where the lab's code runs: ncu lists each process's kernels together, in order.
    if (isolation::enabled()) isolation::probe_in_student_host();
    else run_profile_probe();
    g.current.calls.push_back({{"what", what}, {"facts", facts}});
}

bool run_guarded(const std::function<void()>& call, const std::string& what) {
    try {
        call();
        return true;
    } catch (const course::CudaError& e) {
        if (e.is_sticky()) {
            fail(Failure::IllegalMemoryAccess, what + ": " + e.what());
            emit(end_record(false, 0.0));
            std::cout << "\nThe CUDA context is lost after this crash; the remaining checks cannot run." << std::endl;
            isolation::end_hosts();  // std::_Exit runs no exit handlers: the hosts go first
            std::_Exit(kExitContextLost);
        }
        fail(Failure::LaunchError, what + ": " + e.what());
    } catch (const std::exception& e) {
        fail(Failure::Crash, what + " threw: " + e.what());
    } catch (...) {
        fail(Failure::Crash, what + " threw something that is not a std::exception");
    }
    return false;
}

bool run_student(const std::function<void()>& call, const std::string& what) {
    return run_guarded(
        [&] {
            call();
            CUDA_CHECK(cudaDeviceSynchronize());
            CUDA_CHECK(cudaGetLastError());
        },
        what);
}

}  // namespace grading


int main(int argc, char** argv) {
    using namespace grading;
    // Not dumpable: no other process of this user (the student's code in a launch host, or anything it
    // started) may open this program's descriptors through /proc, the report channel among them, or read
    // or trace its memory.
    ::prctl(PR_SET_DUMPABLE, 0);
    whereabouts::install();  // at the time limit, the log says what this program was doing
    std::vector<const char*> doctest_args = {argv[0]};
    std::optional<std::uint64_t> seed;
    bool plan = false, cpu_only = false;
    std::string workload;  // "sanitizer" or "profile": the runner's own items
    std::string pass;      // "exact" or "measured" (--pass); empty: every check
    std::string gpu_lock;  // --gpu-lock: the GPU lock the runner hands over (with --pass measured only)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--seed" || a == "--report-fd" || a == "--artifacts" || a == "--workload-arg" || a == "--workload-tool" ||
            a == "--pass" || a == "--gpu-lock") {
            if (!has_value) {
                std::cerr << argv[0] << ": " << a << " needs a value\n";
                return 2;
            }
            const std::string v = argv[++i];
            if (a == "--artifacts") {
                g.artifacts = v;
                continue;
            }
            if (a == "--workload-tool") {
                g.workload_tool = v;
                continue;
            }
            if (a == "--gpu-lock") {
                gpu_lock = v;
                continue;
            }
            if (a == "--pass") {
                if (v != "exact" && v != "measured") {
                    std::cerr << argv[0] << ": --pass is exact or measured, not '" << v << "'\n";
                    return 2;
                }
                pass = v;
                continue;
            }
            if (a == "--workload-arg") {
                const auto eq = v.find('=');
                if (eq == std::string::npos || !workload_name_allowed(v.substr(0, eq))) {
                    std::cerr << argv[0] << ": --workload-arg needs name=value, not '" << v << "'\n";
                    return 2;
                }
                g.workload_args[v.substr(0, eq)] = v.substr(eq + 1);
                continue;
            }
            const auto n = course::parse_seed(v);
            if (!n || (a == "--report-fd" && *n > 1024)) {
                std::cerr << argv[0] << ": " << a << " needs a non-negative integer, not '" << v << "'\n";
                return 2;
            }
            if (a == "--seed") seed = *n;
            else g.report_fd = static_cast<int>(*n);
        } else if (a == "--quick") g.quick = true;
        else if (a == "--plan") plan = true;
        else if (a == "--thresholds") {
            nlohmann::json t = nlohmann::json::object();
            for (const auto& [check, value] : registered_thresholds()) {
                if (t.contains(check)) {
                    std::cerr << argv[0] << ": two thresholds for \"" << check << "\"\n";
                    return 1;
                }
                t[check] = value;
            }
            std::cout << t.dump(2) << std::endl;
            return 0;
        }
        else if (a == "--cpu-only") cpu_only = true;
        else if (a == "--sanitizer-workload") workload = "sanitizer";
        else if (a == "--profile-workload") workload = "profile";
        else doctest_args.push_back(argv[i]);
    }
    if (g.report_fd >= 0) {
        // The channel's key is the first line of standard input, written by the runner.
        char c = 0;
        while (::read(STDIN_FILENO, &c, 1) == 1 && c != '\n') g.report_key += c;
        // An optional second line: "secret <16 hex digits>", the instructor's secret as the runner hashed it.
        std::string line;
        while (::read(STDIN_FILENO, &c, 1) == 1 && c != '\n') line += c;
        if (line.rfind("secret ", 0) == 0) {
            try {
                std::size_t used = 0;
                const std::uint64_t v = std::stoull(line.substr(7), &used, 16);
                if (used == line.size() - 7 && used > 0) g.secret = v;
            } catch (const std::exception&) {
            }
            if (!g.secret) {
                std::cerr << argv[0] << ": the runner's secret line is malformed\n";
                return 2;
            }
        }
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, STDIN_FILENO), ::close(devnull);
    }
    doctest::Context context;
    if (plan) {
        doctest_args.push_back("--list-test-cases");
        doctest_args.push_back("--test-suite-exclude=sanitizer,profile");  // the runner's items, not lab checks
        doctest_args.push_back("--reporters=plan");
        doctest_args.push_back("--no-intro");
        context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
        return context.run();
    }

    // A lab whose code runs in launch hosts (isolation.hpp) starts them from this program's own path.
    const auto isolate = [&]() -> bool {
        const char* lab = isolation::registered_lab();
        if (!lab) return true;
        char self[4096] = {0};
        const ssize_t len = ::readlink("/proc/self/exe", self, sizeof self - 1);
        if (len <= 0) {
            std::cerr << "cannot grade: the check program cannot find its own path" << std::endl;
            return false;
        }
        isolation::enable(std::string(self, static_cast<std::size_t>(len)), lab, workload == "sanitizer",
                          workload == "sanitizer" ? isolation::HostTool::Sanitizer
                          : workload == "profile" ? isolation::HostTool::Profiler
                                                  : isolation::HostTool::None);
        return true;
    };
    if (cpu_only) {
        // Host-side parts of a lab (analytic models, references) are checked in CI without a GPU; an isolated
        // lab's host-side functions run in its launch host, which starts without a GPU too.
        if (!isolate()) return 1;
        g.seed = seed ? *seed : course::seed_from_env_or_entropy();
        std::cout << "CPU-only checks; seed: " << g.seed << std::endl;
        doctest_args.push_back("--test-suite=cpu");
        context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
        const int rc = context.run();
        emit({{"event", "done"}});
        return rc;
    }
    if (!gpu_lock.empty()) {
        if (pass != "measured" || !workload.empty()) {
            std::cerr << argv[0] << ": --gpu-lock goes with --pass measured only\n";
            return 2;
        }
        // Taken shared before this program's first CUDA call (its context is made on the GPU): from here on,
        // nothing of this program's runs beside another grading's measurement, and its own measurements
        // (GpuAlone) wait for the others' shared work to end.
        // Before every change of the lock, the student's process is ended, with its CUDA context and all
        // the work it queued (it starts again at its next call): stopped (SIGSTOP) instead, work it left
        // queued would still run while another grading has the GPU alone, and be timed there as that
        // grading's baseline or peer. The peers' process, the course's own, is only stopped.
        try {
            waiting_for_gpu([&] {
                g.gpu = std::make_unique<GpuShare>(gpu_lock, [] {
                    isolation::restart(isolation::Host::Student);
                    isolation::stop_hosts();
                });
            });
        } catch (const std::exception& e) {
            std::cerr << "cannot grade: " << e.what() << std::endl;
            return 1;
        }
    }
    const course::GpuCheck gpu = course::check_gpu();
    if (gpu.status != course::GpuStatus::Ready) {
        std::cerr << "cannot grade: " << gpu.message << std::endl;
        return gpu.exit_code();  // 77 (no GPU) is ctest's skip code
    }
    g.device = course::query_device();
    // With the GPU alone, where this program holds the GPU lock: the free memory, which another grading's
    // work would change, and the performance monitors, which the measurements of another take in turn.
    std::optional<GpuAlone> alone_at_start(std::in_place);
    {
        // Whether the inputs past 2^31 and 2^32 elements run is the GPU's property, decided here, before any student
        // code runs: memory the student's code takes later is the submission's failure, never a skip.
        std::size_t free_bytes = 0, total = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
        g.free_at_start = free_bytes;
    }
    // The performance monitors sampled around the student's timed batches (timed_counters.hpp): taken here,
    // before any student code runs, for the whole graded run. COURSE_TIMED_COUNTERS=off leaves them alone
    // (to compare the timings with and without them on one GPU); the report then says so.
    if (workload.empty() && pass != "exact" && isolation::registered_lab()) {
        const char* off = std::getenv("COURSE_TIMED_COUNTERS");
        if (off && std::string(off) == "off") timed_counters::turn_off("turned off (COURSE_TIMED_COUNTERS=off)");
        else if (!timed_counters::open())
            std::cout << "the GPU's performance monitors cannot be sampled: " << timed_counters::unavailable_reason()
                      << "; the technique of the timed calls is not judged" << std::endl;
    }
    alone_at_start.reset();
    if (!isolate()) return 1;
    // A measurement something outside this grading disturbed (isolation::GpuDisturbed) gives no verdict: the
    // program says so through the channel and ends, and its runner runs the pass again.
    isolation::set_disturbed_handler([](const std::string& why) {
        std::cout << "this measurement was disturbed, so the pass ends without a verdict: " << why << std::endl;
        emit({{"event", "disturbed"}, {"reason", why}});
        std::exit(course::kExitGpuDisturbed);
    });
    g.seed = seed ? *seed : course::seed_from_env_or_entropy();
    std::cout << "GPU:  " << g.device->fingerprint() << "\n"
              << "seed: " << g.seed
              << (g.secret ? "  (with the instructor's secret: inputs and hidden sizes depend on it too)"
                           : "  (rerun with --seed " + std::to_string(g.seed) + " to reproduce)")
              << std::endl;

    // A workload of the runner's items runs alone, under compute-sanitizer or Nsight Compute; graded runs
    // never include one. The profile workload starts with the grader's probe, before any of the lab's code.
    if (workload == "profile") {
        run_profile_probe();
        // Where the lab's code runs in a process of its own, only that process's launches are judged (and the
        // probe above, which shows the counters read true): this program's own launches, its inputs, its
        // references and its verification, were profiled for nothing, each with every replay, and they were
        // most of the work (Lab 07 on an H200: 132 of 157 profiled launches). Profiling stops here, in this
        // program's context only (cudaProfilerStop acts on the calling context); the student's process is
        // profiled from its start, as before.
        if (isolation::enabled()) CUDA_CHECK(cudaProfilerStop());
    }
    const std::string suites = !workload.empty()     ? "--test-suite=" + workload
                               : pass == "exact"     ? std::string("--test-suite-exclude=sanitizer,profile,") + kMeasuredSuite
                               : pass == "measured"  ? std::string("--test-suite=") + kMeasuredSuite
                                                     : std::string("--test-suite-exclude=sanitizer,profile");
    doctest_args.push_back(suites.c_str());
    context.applyCommandLine(static_cast<int>(doctest_args.size()), doctest_args.data());
    const int rc = context.run();
    // The run reached its end: records missing before this one are the lab's doing. With the GPU lock handed
    // over, the last record also says how long this program had the GPU to itself (its start's share too).
    nlohmann::json done = {{"event", "done"}};
    if (g.gpu) done["alone_seconds"] = g.alone_total;
    emit(std::move(done));
    if (g.report_fd >= 0) ::close(g.report_fd);  // nothing after this point can add a record
    g.report_fd = -1;
    return rc;
}
