// The runner's bank-conflict check (see profile.hpp).
#include "profile.hpp"
#include "reports.hpp"

#include "sanitizer.hpp"

#include <cxxabi.h>

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

// True when @p kernel belongs to namespace @p ns: mangled "_ZN<len><ns>..." (a template's too), or
// demangled "ns::..." (perhaps after its return type, "void ").
bool in_namespace(const std::string& kernel, const std::string& ns) {
    const std::string mangled = "_ZN" + std::to_string(ns.size()) + ns;
    return kernel.rfind(mangled, 0) == 0 || kernel.rfind(ns + "::", 0) == 0 || kernel.rfind("void " + ns + "::", 0) == 0;
}

}  // namespace

std::vector<SharedTraffic> parse_ncu_csv(const std::string& text, std::size_t* malformed) {
    static const char* metrics[] = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                                    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"};
    std::istringstream in(text);
    std::string line;
    std::vector<std::string> header;
    std::vector<SharedTraffic> out;
    std::size_t name_col = 0, cols[4] = {0, 0, 0, 0};
    while (std::getline(in, line)) {
        if (line.rfind("\"ID\",", 0) == 0) {  // the header of the raw page
            header = csv_fields(line);
            std::map<std::string, std::size_t> at;
            for (std::size_t i = 0; i < header.size(); ++i) at.emplace(header[i], i);
            if (!at.count("Kernel Name")) throw std::runtime_error("ncu's report has no \"Kernel Name\" column");
            name_col = at["Kernel Name"];
            for (int m = 0; m < 4; ++m) {
                if (!at.count(metrics[m])) throw std::runtime_error(std::string("ncu's report has no ") + metrics[m]);
                cols[m] = at[metrics[m]];
            }
            continue;
        }
        if (header.empty() || line.empty() || line[0] != '"') continue;
        const auto f = csv_fields(line);
        if (f.size() == header.size() && f[0].empty()) continue;  // the units row
        if (f.size() != header.size() || number(f[0]) != number(f[0])) {
            if (malformed) ++*malformed;
            continue;
        }
        SharedTraffic t;
        t.kernel = f[name_col];
        double* fields[] = {&t.load_wavefronts, &t.load_conflicts, &t.store_wavefronts, &t.store_conflicts};
        for (int m = 0; m < 4; ++m) *fields[m] = number(f[cols[m]]);
        out.push_back(t);
    }
    if (header.empty()) throw std::runtime_error("ncu wrote no report");
    return out;
}

std::vector<std::string> ncu_command(const std::string& ncu, const std::string& log_file,
                                     const std::vector<std::string>& program) {
    // --clock-control none: the GPU's clocks stay as they are (counts do not depend on them), and a
    // machine shared with other graders is not disturbed.
    // Mangled kernel names: the only form that always carries the namespace.
    std::vector<std::string> cmd = {ncu,     "--clock-control", "none", "--metrics",           kProfileMetrics,
                                    "--csv", "--page",          "raw",  "--print-kernel-base", "mangled",
                                    "--log-file", log_file, "--target-processes", "all"};
    cmd.insert(cmd.end(), program.begin(), program.end());
    return cmd;
}

namespace {
CheckResult base(const RubricBankConflicts& item) { return runner_item(item.name, item.points, item.visibility); }
}  // namespace

CheckResult bank_conflicts_skipped(const RubricBankConflicts& item, const std::string& why) {
    return runner_item_skipped(base(item), why);
}

CheckResult bank_conflicts_not_built(const RubricBankConflicts& item, const ProcessOutcome& build) {
    return runner_item_not_built(base(item), build);
}

CheckResult judge_bank_conflicts(const RubricBankConflicts& item, const ProfileRun& run, const std::string& key,
                                 double timeout_s, const std::string& lab_namespace) {
    CheckResult c = base(item);
    c.seconds = run.seconds;
    const std::string where = " (log: " + run.log_path + ")";
    const auto& o = run.outcome;
    // How the workload ended comes first: a lab that hangs or crashes under the profiler is judged for that.
    if (o.kind == ProcessOutcome::Kind::TimedOut) {
        set_failure(c, Failure::Timeout,
                    "the workload was still running under ncu after " + std::to_string(static_cast<int>(timeout_s)) +
                        " s" + where);
        return c;
    }
    if (o.kind == ProcessOutcome::Kind::Signaled) {
        set_failure(c, Failure::Crash, "the workload died under ncu with signal " + std::to_string(o.code) + where);
        return c;
    }
    std::vector<SharedTraffic> kernels;
    std::string unreadable;
    std::size_t malformed = 0;
    std::string line_of_log;
    try {
        kernels = parse_ncu_csv(run.log_text, &malformed);
    } catch (const std::exception& e) {
        unreadable = e.what();
    }
    // The grader's probe runs once, before the lab's tests: when it was not profiled, or its counts are not
    // what its access pattern must give, the counters cannot be trusted here. Its name is the grader's own
    // (a lab may define nothing outside its namespace); every other kernel is the lab's.
    std::vector<SharedTraffic> lab_kernels;
    std::size_t probes = 0;
    if (unreadable.empty()) {
        const SharedTraffic* probe = nullptr;
        for (const auto& k : kernels) {
            if (is_probe(k.kernel)) ++probes, probe = &k;
            else lab_kernels.push_back(k);
        }
        if (probes == 0) unreadable = "the grader's probe kernel was not profiled";
        else if (probes == 1) {
            const double ld = conflict_share(probe->load_conflicts, probe->load_wavefronts);
            const double st = conflict_share(probe->store_conflicts, probe->store_wavefronts);
            if (!(ld > 0.4 && ld < 0.6 && st < 0.05))
                unreadable = "the counters misread the grader's probe (" + describe(*probe) +
                             "; expected about 50% of its loads as replays, and none of its stores)";
        }
    }
    if (!unreadable.empty()) {
        // Nsight Compute cannot read this GPU's counters (no permission, a virtual machine): only a workload
        // that ran to its end faithfully is given the benefit (ncu's own exit status may say the error).
        // A workload that failed is judged for that below, whatever the counters.
        nlohmann::json end;
        if (workload_records_problem(parse_json_lines(run.records), key, kProfileWorkload, end).empty() &&
            end.value("passed", false)) {
            std::string why = "Nsight Compute could not measure this GPU's shared-memory counters";
            if (run.log_text.find("ERR_NVGPUCTRPERM") != std::string::npos)
                why += " (ERR_NVGPUCTRPERM: profiling needs administrator rights on this machine)";
            CheckResult s = bank_conflicts_skipped(item, why + "; " + unreadable + where);
            s.seconds = run.seconds;
            return s;
        }
    }
    nlohmann::json end;
    if (const std::string problem = workload_records_problem(parse_json_lines(run.records), key, kProfileWorkload, end);
        !problem.empty()) {
        set_failure(c, o.code == 3 ? Failure::IllegalMemoryAccess : Failure::GraderIntegrity, "under ncu: " + problem + where);
        return c;
    }
    if (!end.value("passed", false)) {
        const Failure cls = failure_from_string(end.value("class", "")).value_or(Failure::WrongResult);
        set_failure(c, cls == Failure::None ? Failure::WrongResult : cls,
                    "the workload failed under ncu: " + end.value("message", std::string()));
        return c;
    }
    if (!unreadable.empty()) {
        set_failure(c, Failure::GraderIntegrity, unreadable + where);
        return c;
    }
    // The counters work (the probe read true): a kernel ncu could not profile, or a report row that cannot
    // be read, is a measurement missing, not a reason to skip.
    if (malformed > 0) {
        set_failure(c, Failure::GraderIntegrity, std::to_string(malformed) + " row(s) of ncu's report cannot be read" + where);
        return c;
    }
    for (std::istringstream lines(run.log_text); std::getline(lines, line_of_log);)
        if (line_of_log.rfind("==ERROR==", 0) == 0) {
            set_failure(c, Failure::GraderIntegrity, "Nsight Compute: " + line_of_log.substr(10) + where);
            return c;
        }
    // Only the grader launches its probe, once; every other kernel must be the lab's own.
    if (probes > 1) {
        set_failure(c, Failure::GraderIntegrity,
                    "the grader's probe kernel ran " + std::to_string(probes) + " times; only the grader launches it" + where);
        return c;
    }
    for (const SharedTraffic& k : lab_kernels)
        if (!in_namespace(k.kernel, lab_namespace)) {
            set_failure(c, Failure::GraderIntegrity,
                        "a kernel outside namespace " + lab_namespace + " ran in the lab's workload: " +
                            display_name(k.kernel) + where);
            return c;
        }
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
        set_failure(c, Failure::TechniqueNotUsed,
                    std::string("bank conflicts: your kernels' shared-memory ") + (loads ? "loads" : "stores") +
                        " took " + percent(loads ? ld : st) + " more wavefronts than the " +
                        std::to_string(static_cast<long long>(needed)) + " a transpose of these matrices needs (at most " +
                        percent(item.max_share) + " allowed)" + where);
        c.hint = "the 32 threads of a warp that read (or write) one tile column touch tile[r][c] for r = 0..31; with "
                 "rows of W floats those sit in banks (r * W + c) % 32, all different only when W is odd: pad the "
                 "row to kTile + 1 floats, or swizzle the column (c ^ r)";
        return c;
    }
    c.points = item.points;
    return c;
}

}  // namespace grading
