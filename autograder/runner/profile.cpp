// The runner's bank-conflict check (see profile.hpp).
#include "profile.hpp"
#include "reports.hpp"

#include "sanitizer.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace grading {

namespace {
// One CSV record: fields in quotes (a doubled quote inside is a quote) or bare, separated by commas.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string f;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') f += '"', ++i;
            else if (ch == '"') quoted = false;
            else f += ch;
        } else if (ch == '"') quoted = true;
        else if (ch == ',') out.push_back(f), f.clear();
        else if (ch != '\r') f += ch;
    }
    out.push_back(f);
    return out;
}

// "1,052,126" -> 1052126; "n/a" or "" -> NaN.
double number(const std::string& text) {
    std::string digits;
    for (char ch : text)
        if (ch != ',' && ch != ' ') digits += ch;
    if (digits.empty()) return std::nan("");
    try {
        std::size_t used = 0;
        const double v = std::stod(digits, &used);
        return used == digits.size() ? v : std::nan("");
    } catch (const std::exception&) {
        return std::nan("");
    }
}

std::string percent(double share) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(share < 0.1 ? 1 : 0) << 100.0 * share << "%";
    return s.str();
}

// A kernel's name for people: demangled when it is a mangled name.
std::string display_name(const std::string& kernel) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(kernel.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : kernel;
}

// "kernel: loads 51% replays (2.03 wavefronts per conflict-free one), stores 0.0%".
std::string describe(const SharedTraffic& t) {
    auto side = [](double conflicts, double wavefronts) {
        if (wavefronts <= 0) return std::string("none");
        const double ideal = wavefronts - conflicts;
        return percent(conflict_share(conflicts, wavefronts)) + " replays (" +
               num(ideal > 0 ? wavefronts / ideal : 0, 2) + " wavefronts per conflict-free one)";
    };
    return display_name(t.kernel) + ": loads " + side(t.load_conflicts, t.load_wavefronts) + ", stores " +
           side(t.store_conflicts, t.store_wavefronts);
}

// The grader's probe: its mangled name exactly (ncu is asked for mangled names; a demangled one, as in
// reports made without that option, is accepted in full, namespace included).
bool is_probe(const std::string& kernel) {
    const std::string mangled = std::string("_ZN7grading") + std::to_string(std::strlen(kProfileProbeKernel)) +
                                kProfileProbeKernel + "EPf";
    const std::string demangled = std::string("grading::") + kProfileProbeKernel + "(";
    return kernel == mangled || kernel.rfind(demangled, 0) == 0 || kernel.rfind("void " + demangled, 0) == 0;
}

// True when @p kernel belongs to namespace @p ns ("lab04", or nested, "lab04::baseline"): mangled
// "_ZN<len><name>..." for each name (a template's too), or demangled "ns::..." (perhaps after its return
// type, "void ").
bool in_namespace(const std::string& kernel, const std::string& ns) {
    std::string mangled = "_ZN";
    for (std::size_t from = 0; from <= ns.size();) {
        const std::size_t to = std::min(ns.find("::", from), ns.size());
        mangled += std::to_string(to - from) + ns.substr(from, to - from);
        from = to + 2;
    }
    return kernel.rfind(mangled, 0) == 0 || kernel.rfind(ns + "::", 0) == 0 || kernel.rfind("void " + ns + "::", 0) == 0;
}

// The bank-conflict check's metrics, in the order of SharedTraffic's fields.
const char* const kTrafficMetrics[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                       "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"};

}  // namespace

// The quantities the shared-memory-use rules may name. Instruction counts are warp-level (one per warp
// that executed the instruction with any lane on); bytes are those the instructions asked for.
const std::vector<ProfileQuantity>& profile_quantities() {
    static const std::vector<ProfileQuantity> q = {
        {"warps", {"smsp__warps_launched.sum"}, {}, "warps launched"},
        {"blocks", {"sm__ctas_launched.sum"}, {}, "blocks launched"},
        {"shared_stores",
         {"smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_atom.sum"},
         {},
         "shared-memory store and atomic instructions"},
        {"shared_loads", {"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum"}, {},
         "shared-memory load instructions"},
        {"shared_load_bytes", {"smsp__sass_data_bytes_mem_shared_op_ld.sum"}, {}, "bytes loaded from shared memory"},
        // A warp's shared load takes one wavefront for every 128 bytes it reads, more when lanes conflict.
        {"shared_load_wavefronts", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}, {},
         "shared-memory load wavefronts"},
        // Staged: written into shared memory by stores, by cp.async (LDGSTS) or by the tensor memory accelerator.
        {"staged_bytes",
         {"smsp__sass_data_bytes_mem_shared_op_st.sum", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
          "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"},
         {},
         "bytes written into shared memory (stores, cp.async, TMA)"},
        {"global_load_bytes",
         {"smsp__sass_data_bytes_mem_global_op_ld.sum", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
          "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"},
         {},
         "bytes loaded from global memory (loads, cp.async, TMA)"},
        {"global_store_bytes", {"smsp__sass_data_bytes_mem_global_op_st.sum"}, {}, "bytes stored to global memory"},
        {"global_writes",
         {"smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_inst_executed_op_global_red.sum",
          "smsp__sass_inst_executed_op_global_atom.sum"},
         {},
         "global-memory store, reduction and atomic instructions"},
        {"ffma", {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}, {}, "FP32 fused multiply-adds (per thread)"},
        // The tensor pipe, less HFMA2.MMA: the compiler's way of moving constants into registers, which
        // counts on that pipe in every kind of kernel.
        {"tensor_instructions",
         {"sm__inst_executed_pipe_tensor.sum"},
         {"sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum"},
         "tensor-core instructions"},
    };
    return q;
}

std::string profile_metrics() {
    std::vector<std::string> all(std::begin(kTrafficMetrics), std::end(kTrafficMetrics));
    for (const auto& q : profile_quantities())
        for (const auto* list : {&q.plus, &q.minus})
            for (const char* m : *list)
                if (std::find(all.begin(), all.end(), m) == all.end()) all.push_back(m);
    std::string out;
    for (const auto& m : all) out += (out.empty() ? "" : ",") + m;
    return out;
}

std::optional<double> KernelCounts::quantity(const std::string& name) const {
    for (const auto& q : profile_quantities()) {
        if (name != q.name) continue;
        double v = 0;
        for (const auto* list : {&q.plus, &q.minus})
            for (const char* m : *list) {
                const auto it = metrics.find(m);
                if (it == metrics.end() || !(it->second >= 0)) return std::nullopt;
                v += list == &q.plus ? it->second : -it->second;
            }
        return std::max(v, 0.0);
    }
    return std::nullopt;
}

std::vector<KernelCounts> parse_ncu_counts(const std::string& text, std::size_t* malformed,
                                           std::vector<std::string>* columns) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    std::vector<KernelCounts> out;
    std::size_t name_col = 0, process_col = 0;
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\",", 0) == 0) {  // the header of the raw page
            header = csv_fields(line);
            const auto at = std::find(header.begin(), header.end(), "Kernel Name");
            if (at == header.end()) throw std::runtime_error("ncu's report has no \"Kernel Name\" column");
            name_col = static_cast<std::size_t>(at - header.begin());
            const auto proc = std::find(header.begin(), header.end(), "Process Name");
            process_col = proc == header.end() ? header.size() : static_cast<std::size_t>(proc - header.begin());
            continue;
        }
        if (header.empty() || line.empty() || line[0] != '"') continue;
        const auto f = csv_fields(line);
        if (f.size() == header.size() && f[0].empty()) continue;  // the units row
        if (f.size() != header.size() || number(f[0]) != number(f[0])) {
            if (malformed) ++*malformed;
            continue;
        }
        KernelCounts k;
        k.kernel = f[name_col];
        if (process_col < f.size()) k.process = f[process_col];
        for (std::size_t i = 0; i < header.size(); ++i)
            if (header[i].find("__") != std::string::npos) k.metrics[header[i]] = number(f[i]);
        out.push_back(std::move(k));
    }
    if (header.empty()) throw std::runtime_error("ncu wrote no report");
    if (columns) *columns = header;
    return out;
}

namespace {
SharedTraffic traffic_of(const KernelCounts& k) {
    SharedTraffic t;
    t.kernel = k.kernel;
    double* fields[] = {&t.load_wavefronts, &t.load_conflicts, &t.store_wavefronts, &t.store_conflicts};
    for (int m = 0; m < 4; ++m) {
        const auto it = k.metrics.find(kTrafficMetrics[m]);
        *fields[m] = it == k.metrics.end() ? std::nan("") : it->second;
    }
    return t;
}
}  // namespace

std::vector<SharedTraffic> parse_ncu_csv(const std::string& text, std::size_t* malformed) {
    std::vector<std::string> columns;
    const auto counts = parse_ncu_counts(text, malformed, &columns);
    // The columns must be there (a report of other metrics is not one of this check's).
    for (const char* m : kTrafficMetrics)
        if (std::find(columns.begin(), columns.end(), m) == columns.end())
            throw std::runtime_error(std::string("ncu's report has no ") + m);
    std::vector<SharedTraffic> out;
    for (const auto& k : counts) out.push_back(traffic_of(k));
    return out;
}

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& log_file,
                                     const std::vector<std::string>& program) {
    // --clock-control none: the GPU's clocks stay as they are (counts do not depend on them), and a
    // machine shared with other graders is not disturbed.
    // Mangled kernel names: the only form that always carries the namespace.
    std::vector<std::string> cmd = {ncu,     "--clock-control", "none", "--metrics",           profile_metrics(),
                                    "--csv", "--page",          "raw",  "--print-kernel-base", "mangled",
                                    "--log-file", log_file, "--target-processes", "all"};
    cmd.insert(cmd.end(), program.begin(), program.end());
    return cmd;
}

namespace {
CheckResult base(const RubricBankConflicts& item) { return runner_item(item.name, item.points, item.visibility); }
CheckResult base(const RubricSharedUse& item) { return runner_item(item.name, item.points, item.visibility); }

// What a profile run gave, read once for every item judged from it: the lab's kernel launches, each with
// the call of the workload it belongs to. The grader's probe runs once in the check program before the
// workload, and after each of its calls in the process that runs the lab's code (ncu lists each process's
// launches together, in order, the processes in the order they started): the launches between two probes
// are one call's.
struct ProfileReading {
    std::vector<KernelCounts> lab;     // the lab's launches, in order
    std::vector<std::size_t> call_of;  // for each, the index of its call in `calls`
    std::vector<std::string> calls;    // the workload's calls, as it named them (one "workload" if it did not)
    std::vector<std::map<std::string, double>> facts;  // what each call must show, as the workload stated it
    nlohmann::json end;                // the workload's end record
    bool skipped = false;              // the counters cannot be read here (the item is not run)
};

// Reads @p run: fills @p c (its class and message) and returns nullopt when the run cannot be judged by
// its counters; returns the reading otherwise (skipped set when the counters cannot be read here, the
// workload having run faithfully).
std::optional<ProfileReading> read_profile(CheckResult& c, const ProfileRun& run, const std::string& key,
                                           double timeout_s, const std::string& lab_namespace) {
    c.seconds = run.seconds;
    const std::string where = " (log: " + run.log_path + ")";
    const auto& o = run.outcome;
    // How the workload ended comes first: a lab that hangs or crashes under the profiler is judged for that.
    if (o.kind == ProcessOutcome::Kind::TimedOut) {
        set_failure(c, Failure::Timeout,
                    "the workload was still running under ncu after " + std::to_string(static_cast<int>(timeout_s)) +
                        " s" + where);
        return std::nullopt;
    }
    if (o.kind == ProcessOutcome::Kind::Signaled) {
        set_failure(c, Failure::Crash, "the workload died under ncu with signal " + std::to_string(o.code) + where);
        return std::nullopt;
    }
    std::vector<KernelCounts> kernels;
    std::string unreadable;
    std::size_t malformed = 0;
    try {
        kernels = parse_ncu_counts(run.log_text, &malformed);
    } catch (const std::exception& e) {
        unreadable = e.what();
    }
    // ncu lists each process's launches together and in order, but not always the check program's first
    // (seen on an H100: a launch host's listed before it). The check program, whose probe runs before the
    // workload, goes first; the launch hosts (named "..._host") follow in the order ncu gave them.
    std::stable_partition(kernels.begin(), kernels.end(), [](const KernelCounts& k) {
        return !(k.process.size() >= 5 && k.process.compare(k.process.size() - 5, 5, "_host") == 0);
    });
    // The grader's probe runs before the lab's calls: when it was not profiled, or its counts are not what
    // its access pattern must give, the counters cannot be trusted here. Its name is the grader's own (a
    // lab may define nothing outside its namespace); every other kernel is the lab's.
    std::vector<std::size_t> probes;
    if (unreadable.empty()) {
        for (std::size_t i = 0; i < kernels.size(); ++i)
            if (is_probe(kernels[i].kernel)) probes.push_back(i);
        if (probes.empty()) unreadable = "the grader's probe kernel was not profiled";
        else {
            const SharedTraffic probe = traffic_of(kernels[probes[0]]);
            const double ld = conflict_share(probe.load_conflicts, probe.load_wavefronts);
            const double st = conflict_share(probe.store_conflicts, probe.store_wavefronts);
            if (!(ld > 0.4 && ld < 0.6 && st < 0.05))
                unreadable = "the counters misread the grader's probe (" + describe(probe) +
                             "; expected about 50% of its loads as replays, and none of its stores)";
        }
    }
    ProfileReading r;
    if (!unreadable.empty()) {
        // Nsight Compute cannot read this GPU's counters (no permission, a virtual machine): only a workload
        // that ran to its end faithfully is given the benefit (ncu's own exit status may say the error).
        // A workload that failed is judged for that below, whatever the counters.
        nlohmann::json end;
        if (workload_records_problem(parse_json_lines(run.records), key, kProfileWorkload, end).empty() &&
            end.value("passed", false)) {
            std::string why = "Nsight Compute could not measure this GPU's counters";
            if (run.log_text.find("ERR_NVGPUCTRPERM") != std::string::npos)
                why += " (ERR_NVGPUCTRPERM: profiling needs administrator rights on this machine)";
            c.message = why + "; " + unreadable + where;
            r.skipped = true;
            return r;
        }
    }
    if (const std::string problem = workload_records_problem(parse_json_lines(run.records), key, kProfileWorkload, r.end);
        !problem.empty()) {
        set_failure(c, o.code == 3 ? Failure::IllegalMemoryAccess : Failure::GraderIntegrity, "under ncu: " + problem + where);
        return std::nullopt;
    }
    if (!r.end.value("passed", false)) {
        const Failure cls = failure_from_string(r.end.value("class", "")).value_or(Failure::WrongResult);
        set_failure(c, cls == Failure::None ? Failure::WrongResult : cls,
                    "the workload failed under ncu: " + r.end.value("message", std::string()));
        return std::nullopt;
    }
    if (!unreadable.empty()) {
        set_failure(c, Failure::GraderIntegrity, unreadable + where);
        return std::nullopt;
    }
    // The counters work (the probe read true): a kernel ncu could not profile, or a report row that cannot
    // be read, is a measurement missing, not a reason to skip.
    if (malformed > 0) {
        set_failure(c, Failure::GraderIntegrity, std::to_string(malformed) + " row(s) of ncu's report cannot be read" + where);
        return std::nullopt;
    }
    std::string line_of_log;
    for (std::istringstream lines(run.log_text); std::getline(lines, line_of_log);)
        if (line_of_log.rfind("==ERROR==", 0) == 0) {
            set_failure(c, Failure::GraderIntegrity, "Nsight Compute: " + line_of_log.substr(10) + where);
            return std::nullopt;
        }
    // Only the grader launches its probe: once before the workload, and once after each call it names.
    if (r.end.contains("calls") && r.end["calls"].is_array())
        for (const auto& call : r.end["calls"]) {
            std::map<std::string, double> facts;
            if (call.is_object() && call.contains("facts") && call["facts"].is_object())
                for (const auto& [name, v] : call["facts"].items())
                    if (v.is_number()) facts[name] = v.get<double>();
            r.calls.push_back(call.is_object() ? call.value("what", std::string("?")) : "?");
            r.facts.push_back(std::move(facts));
        }
    const std::size_t expected = 1 + r.calls.size();
    if (r.calls.empty()) r.calls.push_back("the workload"), r.facts.emplace_back();
    if (probes.size() != expected) {
        set_failure(c, Failure::GraderIntegrity,
                    "the grader's probe kernel ran " + std::to_string(probes.size()) + " times, not " +
                        std::to_string(expected) + "; only the grader launches it" + where);
        return std::nullopt;
    }
    // Whose each launch is. Where the lab's code runs in a process of its own (its launch host, named
    // "<program>_host"), every launch of that process is the lab's, and those of the check program and of
    // the peers' host ("lab<id>_peer_host") are the grader's: its inputs, references and verification.
    // Where the lab's code runs in the check program, the lab's launches are those of its namespace, less
    // its baselines'.
    const auto ends_with = [](const std::string& s, const std::string& tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    const auto student_host = [&](const KernelCounts& k) {
        return ends_with(k.process, "_host") && !ends_with(k.process, "_peer_host");
    };
    bool isolated = false;
    for (const auto& k : kernels) isolated = isolated || student_host(k);
    for (std::size_t i = 0, call = 0; i < kernels.size(); ++i) {
        if (is_probe(kernels[i].kernel)) {
            if (i != probes[0]) ++call;
            continue;
        }
        const bool in_lab = in_namespace(kernels[i].kernel, lab_namespace);
        if (isolated ? !student_host(kernels[i]) : !in_lab || in_namespace(kernels[i].kernel, lab_namespace + "::baseline"))
            continue;  // the grader's
        if (i < probes[0] || !in_lab) {
            set_failure(c, Failure::GraderIntegrity,
                        (i < probes[0] ? "a kernel ran before the grader's probe in the lab's workload: "
                                       : "a kernel outside namespace " + lab_namespace + " ran in the lab's workload: ") +
                            display_name(kernels[i].kernel) + where);
            return std::nullopt;
        }
        r.lab.push_back(kernels[i]);
        r.call_of.push_back(std::min(call, r.calls.size() - 1));
    }
    return r;
}
}  // namespace

namespace {
// read_profile() for an item: @p c becomes the item's result so far; where the counters cannot be read
// here, the item not run (its time kept), and nullopt.
template <class Item>
std::optional<ProfileReading> read_for(const Item& item, CheckResult& c, const ProfileRun& run, const std::string& key,
                                       double timeout_s, const std::string& lab_namespace) {
    c = base(item);
    std::optional<ProfileReading> r = read_profile(c, run, key, timeout_s, lab_namespace);
    if (r && r->skipped) {
        c = runner_item_skipped(base(item), c.message);
        c.seconds = run.seconds;
        return std::nullopt;
    }
    return r;
}
}  // namespace

CheckResult bank_conflicts_skipped(const RubricBankConflicts& item, const std::string& why) {
    return runner_item_skipped(base(item), why);
}

CheckResult bank_conflicts_not_built(const RubricBankConflicts& item, const ProcessOutcome& build) {
    return runner_item_not_built(base(item), build);
}

CheckResult shared_use_skipped(const RubricSharedUse& item, const std::string& why) {
    return runner_item_skipped(base(item), why);
}

CheckResult shared_use_not_built(const RubricSharedUse& item, const ProcessOutcome& build) {
    return runner_item_not_built(base(item), build);
}

CheckResult judge_shared_use(const RubricSharedUse& item, const ProfileRun& run, const std::string& key,
                             double timeout_s, const std::string& lab_namespace) {
    CheckResult c;
    const std::optional<ProfileReading> r = read_for(item, c, run, key, timeout_s, lab_namespace);
    if (!r) return c;
    const std::string where = " (log: " + run.log_path + ")";
    for (const auto& rule : item.rules)
        for (const std::string& q : {rule.measure, rule.of}) {
            bool known = false;
            for (const auto& p : profile_quantities()) known = known || q == p.name;
            if (!known) {
                set_failure(c, Failure::GraderIntegrity, "the rubric names an unknown quantity \"" + q + "\"");
                return c;
            }
        }
    const auto says = [](const std::string& name) {
        for (const auto& p : profile_quantities())
            if (name == p.name) return std::string(p.says);
        return name;
    };
    // What each call's launches did, for the report.
    std::vector<std::map<std::string, double>> sums(r->calls.size());
    std::vector<int> launches(r->calls.size(), 0);
    for (std::size_t i = 0; i < r->lab.size(); ++i) {
        ++launches[r->call_of[i]];
        for (const auto& p : profile_quantities())
            if (const auto v = r->lab[i].quantity(p.name)) sums[r->call_of[i]][p.name] += *v;
    }
    for (std::size_t call = 0; call < r->calls.size(); ++call) {
        std::string line = r->calls[call] + ": " + std::to_string(launches[call]) + " launch(es)";
        for (const char* q : {"warps", "shared_stores", "shared_loads", "staged_bytes", "global_load_bytes", "global_writes"})
            if (sums[call].count(q)) line += ", " + std::string(q) + " " + num(sums[call][q], 0);
        c.notes.push_back(line);
    }
    for (std::size_t call = 0; call < r->calls.size(); ++call)
        if (launches[call] == 0) {
            set_failure(c, Failure::TechniqueNotUsed,
                        "no kernel of yours ran during " + r->calls[call] + ": the work must be done by your kernels" + where);
            return c;
        }
    for (std::size_t i = 0; i < r->lab.size(); ++i) {
        const KernelCounts& k = r->lab[i];
        const std::optional<double> warps = k.quantity("warps");
        if (!warps) {
            set_failure(c, Failure::GraderIntegrity, "ncu gave no counts for " + display_name(k.kernel) + where);
            return c;
        }
        if (*warps < item.min_warps) continue;
        for (const auto& rule : item.rules) {
            const std::optional<double> lhs = k.quantity(rule.measure), rhs = k.quantity(rule.of);
            if (!lhs || !rhs) {
                set_failure(c, Failure::GraderIntegrity,
                            "ncu gave no counts of " + (lhs ? rule.of : rule.measure) + " for " + display_name(k.kernel) + where);
                return c;
            }
            if (!rule.near_fact.empty()) {
                // The ratio must be the call's fact, within the rule's tolerance.
                const auto& facts = r->facts[r->call_of[i]];
                const auto fact = facts.find(rule.near_fact);
                if (fact == facts.end()) {
                    set_failure(c, Failure::GraderIntegrity,
                                "the workload did not say the " + rule.near_fact + " of " + r->calls[r->call_of[i]] + where);
                    return c;
                }
                const double ratio = *rhs > 0 ? *lhs / *rhs : 0.0;
                if (std::fabs(ratio - fact->second) <= rule.tolerance * fact->second) continue;
                set_failure(c, Failure::TechniqueNotUsed,
                            "during " + r->calls[r->call_of[i]] + ", " + display_name(k.kernel) + " made " + num(ratio, 2) +
                                " " + says(rule.measure) + " for each of its " + says(rule.of) + ", where " +
                                num(fact->second, 2) + " (within " + percent(rule.tolerance) + ") are the " +
                                rule.near_fact + " the lab asks for" + where);
                if (!rule.why.empty()) c.hint = rule.why;
                return c;
            }
            const double bound = rule.factor * *rhs;
            const bool holds = rule.at_least ? *lhs >= bound : *lhs <= bound;
            if (holds) continue;
            set_failure(c, Failure::TechniqueNotUsed,
                        "during " + r->calls[r->call_of[i]] + ", " + display_name(k.kernel) + " (" + num(*warps, 0) +
                            " warps) executed " + num(*lhs, 0) + " " + says(rule.measure) + " against " + num(*rhs, 0) +
                            " " + says(rule.of) + ": " + (rule.at_least ? "at least " : "at most ") + num(rule.factor, 4) +
                            " per one (" + num(bound, 0) + ") are the technique's" + where);
            if (!rule.why.empty()) c.hint = rule.why;
            return c;
        }
    }
    c.points = item.points;
    return c;
}

CheckResult judge_bank_conflicts(const RubricBankConflicts& item, const ProfileRun& run, const std::string& key,
                                 double timeout_s, const std::string& lab_namespace) {
    CheckResult c;
    const std::optional<ProfileReading> r = read_for(item, c, run, key, timeout_s, lab_namespace);
    if (!r) return c;
    const std::string where = " (log: " + run.log_path + ")";
    const nlohmann::json& end = r->end;
    std::vector<SharedTraffic> lab_kernels;
    for (const auto& k : r->lab) lab_kernels.push_back(traffic_of(k));
    // The traffic a transpose needs: for every 32 elements, one conflict-free load wavefront and one store
    // wavefront. Conflicts are counted against that, so shared-memory traffic added on purpose (to dilute
    // them) changes nothing.
    const double elements = end.value("value", 0.0);
    if (!(elements >= 32)) {
        set_failure(c, Failure::GraderIntegrity, "the workload did not say how many elements it transposed" + where);
        return c;
    }
    const double needed = elements / 32.0;
    SharedTraffic lab{"the lab's kernels"};
    for (const SharedTraffic& k : lab_kernels) {
        for (double v : {k.load_wavefronts, k.load_conflicts, k.store_wavefronts, k.store_conflicts})
            if (!(v >= 0)) {
                set_failure(c, Failure::GraderIntegrity, "ncu gave no counts for " + display_name(k.kernel) + where);
                return c;
            }
        lab.load_wavefronts += k.load_wavefronts;
        lab.load_conflicts += k.load_conflicts;
        lab.store_wavefronts += k.store_wavefronts;
        lab.store_conflicts += k.store_conflicts;
    }
    const double ld = lab.load_conflicts / needed, st = lab.store_conflicts / needed;
    c.value = std::max(ld, st);
    c.threshold = item.max_share;
    c.unit = " replays per wavefront needed";  // the larger of the loads' and the stores'
    c.higher_is_better = false;
    c.notes.push_back("Nsight Compute, " + std::to_string(lab_kernels.size()) + " kernel launch(es) of the lab: " +
                      describe(lab).substr(lab.kernel.size() + 2));
    for (std::size_t i = 0; i < lab_kernels.size() && i < 4; ++i) c.notes.push_back("  " + describe(lab_kernels[i]));
    c.notes.push_back(std::to_string(static_cast<long long>(elements)) + " elements transposed: at least " +
                      std::to_string(static_cast<long long>(needed)) + " load and as many store wavefronts needed");
    if (lab.load_wavefronts + lab.store_wavefronts <= 0) {
        set_failure(c, Failure::TechniqueNotUsed, "the lab's kernels made no shared-memory access" + where);
        return c;
    }
    if (ld > item.max_share || st > item.max_share) {
        const bool loads = ld >= st;
        // Where: the launch with the most replays of that kind, and the call that made it.
        std::size_t worst = 0;
        for (std::size_t i = 1; i < lab_kernels.size(); ++i)
            if ((loads ? lab_kernels[i].load_conflicts : lab_kernels[i].store_conflicts) >
                (loads ? lab_kernels[worst].load_conflicts : lab_kernels[worst].store_conflicts))
                worst = i;
        set_failure(c, Failure::TechniqueNotUsed,
                    std::string("bank conflicts: your kernels' shared-memory ") + (loads ? "loads" : "stores") +
                        " took " + percent(loads ? ld : st) + " more wavefronts than the " +
                        std::to_string(static_cast<long long>(needed)) + " a transpose of these matrices needs (at most " +
                        percent(item.max_share) + " allowed); the most in " + describe(lab_kernels[worst]) + ", during " +
                        r->calls[r->call_of[worst]] + where);
        c.hint = "the 32 threads of a warp that read (or write) one tile column touch tile[r][c] for r = 0..31; with "
                 "rows of W floats those sit in banks (r * W + c) % 32, all different only when W is odd: pad the "
                 "row to kTile + 1 floats, or swizzle the column (c ^ r)";
        return c;
    }
    c.points = item.points;
    return c;
}

}  // namespace grading
