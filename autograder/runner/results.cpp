// The runner's model (see results.hpp).
#include "results.hpp"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace grading {

double RubricLab::max_points() const {
    double p = 0;
    for (const auto& c : checks) p += c.points;
    return p + (sanitizer ? sanitizer->points : 0.0) + (shared_use ? shared_use->points : 0.0) +
           (bank_conflicts ? bank_conflicts->points : 0.0);
}

const RubricLab* Rubric::find(const std::string& id) const {
    for (const auto& l : labs)
        if (l.id == id) return &l;
    return nullptr;
}

namespace {
void check_visibility(const std::string& v, const std::string& check) {
    if (v != "visible" && v != "after_due_date" && v != "after_published" && v != "hidden")
        throw std::runtime_error("rubric: \"" + check + "\" has visibility \"" + v +
                                 "\" (visible, after_due_date, after_published or hidden)");
}
}  // namespace

Rubric parse_rubric(const nlohmann::json& j) {
    Rubric r;
    if (!j.contains("labs") || !j["labs"].is_array()) throw std::runtime_error("rubric: no \"labs\" array");
    for (const auto& l : j["labs"]) {
        RubricLab lab;
        lab.id = l.at("id").get<std::string>();
        lab.dir = l.at("dir").get<std::string>();
        lab.title = l.at("title").get<std::string>();
        lab.topic = l.value("topic", std::string());
        lab.teaches = l.value("teaches", std::string());
        if (l.contains("measured_pass")) {
            const auto& m = l["measured_pass"];
            if (!m.is_object() || !m.contains("seconds") || !m["seconds"].is_number() || m["seconds"].get<double>() <= 0 ||
                !m.contains("why") || !m["why"].is_string() || m["why"].get<std::string>().empty())
                throw std::runtime_error("rubric: lab " + lab.id +
                                         ": \"measured_pass\" needs \"seconds\" (above 0) and \"why\" (the reason)");
            lab.measured_pass_seconds = m["seconds"].get<double>();
        }
        for (const auto& c : l.at("checks")) {
            RubricCheck check{c.at("name").get<std::string>(), c.at("points").get<double>(),
                              c.value("visibility", std::string("visible"))};
            check_visibility(check.visibility, check.name);
            if (c.contains("threshold")) check.threshold = c.at("threshold").get<double>();
            check.criterion = c.value("criterion", std::string());
            if (c.contains("measured") && (!c["measured"].is_string() || c["measured"].get<std::string>().empty()))
                throw std::runtime_error("rubric: \"" + check.name + "\": \"measured\" says why the check needs the GPU to itself");
            check.measured = check.threshold.has_value() || c.contains("measured");
            if (c.contains("reference")) {
                if (!check.threshold)
                    throw std::runtime_error("rubric: \"" + check.name + "\" has reference figures but no threshold");
                for (const auto& [gpu, range] : c["reference"].items()) {
                    const auto r = range.get<std::vector<double>>();
                    if (r.size() != 2 || r[0] > r[1])
                        throw std::runtime_error("rubric: \"" + check.name + "\": the reference on " + gpu +
                                                 " must be [lowest, highest]");
                    check.reference.push_back({gpu, {r[0], r[1]}});
                }
            }
            if (check.points < 0) throw std::runtime_error("rubric: negative points for \"" + check.name + "\"");
            for (const auto& other : lab.checks)
                if (other.name == check.name) throw std::runtime_error("rubric: lab " + lab.id + " lists \"" + check.name + "\" twice");
            lab.checks.push_back(check);
        }
        if (lab.checks.empty()) throw std::runtime_error("rubric: lab " + lab.id + " has no checks");
        if (l.contains("sanitizer")) {
            const auto& s = l["sanitizer"];
            RubricSanitizer item{s.at("name").get<std::string>(), s.at("points").get<double>(),
                                 s.at("tools").get<std::vector<std::string>>(), s.value("visibility", std::string("visible"))};
            check_visibility(item.visibility, item.name);
            item.criterion = s.value("criterion", std::string());
            if (item.points < 0) throw std::runtime_error("rubric: negative points for \"" + item.name + "\"");
            for (const auto& other : lab.checks)
                if (other.name == item.name) throw std::runtime_error("rubric: lab " + lab.id + " lists \"" + item.name + "\" twice");
            if (item.tools.empty()) throw std::runtime_error("rubric: lab " + lab.id + "'s sanitizer item names no tool");
            for (const auto& t : item.tools)
                if (t != "memcheck" && t != "racecheck" && t != "synccheck" && t != "initcheck")
                    throw std::runtime_error("rubric: lab " + lab.id + ": unknown compute-sanitizer tool \"" + t + "\"");
            lab.sanitizer = std::move(item);
        }
        // Every name a lab reports once.
        const auto taken = [&lab](const std::string& name) {
            for (const auto& other : lab.checks)
                if (other.name == name) return true;
            return (lab.sanitizer && lab.sanitizer->name == name) || (lab.shared_use && lab.shared_use->name == name);
        };
        if (l.contains("shared_memory_use")) {
            const auto& u = l["shared_memory_use"];
            RubricSharedUse item{u.at("name").get<std::string>(), u.at("points").get<double>(),
                                 u.value("min_warps", 0.0)};
            item.visibility = u.value("visibility", std::string("visible"));
            item.criterion = u.value("criterion", std::string());
            check_visibility(item.visibility, item.name);
            if (item.points < 0) throw std::runtime_error("rubric: negative points for \"" + item.name + "\"");
            if (taken(item.name)) throw std::runtime_error("rubric: lab " + lab.id + " lists \"" + item.name + "\" twice");
            for (const auto& r : u.at("rules")) {
                SharedUseRule rule;
                rule.measure = r.at("measure").get<std::string>();
                rule.of = r.at("of").get<std::string>();
                rule.why = r.value("why", std::string());
                if (r.contains("near_fact")) {
                    rule.near_fact = r.at("near_fact").get<std::string>();
                    rule.tolerance = r.at("tolerance").get<double>();
                    if (!(rule.tolerance > 0 && rule.tolerance < 1) || r.contains("at_least") || r.contains("at_most"))
                        throw std::runtime_error("rubric: lab " + lab.id +
                                                 ": a near_fact rule needs a tolerance in (0, 1) and no at_least or at_most");
                    item.rules.push_back(std::move(rule));
                    continue;
                }
                if (r.contains("at_least") == r.contains("at_most"))
                    throw std::runtime_error("rubric: lab " + lab.id + ": a shared-memory rule needs one of at_least, at_most");
                rule.at_least = r.contains("at_least");
                rule.factor = r.at(rule.at_least ? "at_least" : "at_most").get<double>();
                if (!(rule.factor >= 0)) throw std::runtime_error("rubric: lab " + lab.id + ": a shared-memory rule's factor is negative");
                item.rules.push_back(std::move(rule));
            }
            if (item.rules.empty()) throw std::runtime_error("rubric: lab " + lab.id + "'s shared-memory-use item has no rule");
            lab.shared_use = std::move(item);
        }
        if (l.contains("bank_conflicts")) {
            const auto& b = l["bank_conflicts"];
            RubricBankConflicts item{b.at("name").get<std::string>(), b.at("points").get<double>(),
                                     b.at("max_share").get<double>(), b.value("visibility", std::string("visible")),
                                     b.value("criterion", std::string())};
            check_visibility(item.visibility, item.name);
            if (item.points < 0) throw std::runtime_error("rubric: negative points for \"" + item.name + "\"");
            if (!(item.max_share >= 0 && item.max_share < 0.5))
                throw std::runtime_error("rubric: lab " + lab.id + "'s bank-conflict share limit must be in [0, 0.5)");
            if (taken(item.name)) throw std::runtime_error("rubric: lab " + lab.id + " lists \"" + item.name + "\" twice");
            lab.bank_conflicts = std::move(item);
        }
        if (r.find(lab.id)) throw std::runtime_error("rubric: lab " + lab.id + " appears twice");
        r.labs.push_back(std::move(lab));
    }
    return r;
}

Rubric load_rubric(const std::string& path) {
    namespace fs = std::filesystem;
    auto read_json = [](const fs::path& p) {
        std::ifstream in(p);
        if (!in) throw std::runtime_error("cannot open " + p.string());
        try {
            return nlohmann::json::parse(in);
        } catch (const std::exception& e) {
            throw std::runtime_error(p.string() + ": " + e.what());
        }
    };
    if (!fs::is_directory(path)) return parse_rubric(read_json(path));
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path))
        if (fs::exists(entry.path() / "rubric.json")) files.push_back(entry.path() / "rubric.json");
    std::sort(files.begin(), files.end());
    nlohmann::json labs = nlohmann::json::array();
    for (const auto& f : files) {
        nlohmann::json lab = read_json(f);
        const std::string folder = f.parent_path().filename().string();
        if (lab.value("dir", "") != folder)
            throw std::runtime_error(f.string() + ": \"dir\" must be \"" + folder + "\"");
        labs.push_back(std::move(lab));
    }
    if (labs.empty()) throw std::runtime_error("no */rubric.json under " + path);
    return parse_rubric({{"labs", labs}});
}

double LabResult::points() const {
    double p = 0;
    for (const auto& c : checks) p += c.points;
    return p;
}
double LabResult::max_points() const {
    double p = 0;
    for (const auto& c : checks) p += c.max_points;
    return p;
}
bool LabResult::passed() const {
    return std::all_of(checks.begin(), checks.end(), [](const CheckResult& c) { return c.passed(); });
}
Failure LabResult::primary_failure() const {
    Failure f = Failure::None;
    for (const auto& c : checks)
        if (c.cls != Failure::None && (f == Failure::None || static_cast<int>(c.cls) < static_cast<int>(f))) f = c.cls;
    return f;
}

std::vector<nlohmann::json> parse_json_lines(const std::string& text) {
    std::vector<nlohmann::json> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (!j.is_discarded()) out.push_back(std::move(j));  // a torn last line (killed mid-write) is dropped
    }
    return out;
}

namespace {
// What to charge a check that started but never ended, from how the process ended.
CheckResult interrupted(const RubricCheck& rc, const ProcessOutcome& o) {
    CheckResult c;
    c.name = rc.name;
    c.max_points = rc.points;
    switch (o.kind) {
    case ProcessOutcome::Kind::TimedOut:
        c.cls = Failure::Timeout;
        c.message = "still running after " + std::to_string(static_cast<int>(o.timeout_s)) + " s; the lab was stopped";
        break;
    case ProcessOutcome::Kind::Signaled:
        c.cls = Failure::Crash;
        c.message = std::string("the process died with signal ") + std::to_string(o.code) + " (" + strsignal(o.code) + ")";
        break;
    default:
        c.cls = Failure::Crash;
        c.message = "the process exited with status " + std::to_string(o.code) + " before this check finished";
        break;
    }
    c.hint = std::string(default_hint(c.cls));
    return c;
}
}  // namespace

std::string channel_problem(const RubricLab& lab, const std::vector<nlohmann::json>& lines, const ProcessOutcome& outcome,
                            const std::string& key) {
    std::size_t next_check = 0;  // index in the rubric of the next check expected to start
    bool open = false, done = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& j = lines[i];
        const std::string where = "record " + std::to_string(i + 1);
        if (!j.is_object() || !j.contains("key") || !j["key"].is_string() || j["key"].get<std::string>() != key)
            return where + " does not carry this run's key: it was not written by the grader's checks";
        if (!j.contains("seq") || !j["seq"].is_number_unsigned() || j["seq"].get<std::uint64_t>() != i)
            return where + " is out of sequence (a record was added, dropped or repeated)";
        if (done) return where + " comes after the run's last record";
        const std::string ev = j.value("event", "");
        const std::string name = j.value("check", "");
        if (ev == "done") {
            if (open) return "the run ended its records inside check \"" + lab.checks[next_check - 1].name + "\"";
            done = true;
        } else if (ev == "start") {
            if (open) return where + " starts \"" + name + "\" before \"" + lab.checks[next_check - 1].name + "\" ended";
            if (next_check >= lab.checks.size()) return where + " starts \"" + name + "\", which is not in the rubric or comes twice";
            if (lab.checks[next_check].name != name)
                return where + " starts \"" + name + "\" where the rubric's next check is \"" + lab.checks[next_check].name + "\"";
            ++next_check;
            open = true;
        } else if (ev == "end") {
            if (!open || lab.checks[next_check - 1].name != name) return where + " ends \"" + name + "\", which was not running";
            open = false;
        } else if (ev == "gpu_wait") {
            // The measured pass waiting for the GPU lock (its runner does not count that time): no verdict.
        } else {
            return where + " is of an unknown kind \"" + ev + "\"";
        }
    }
    // A run that exited by itself must have reported everything; one that was killed, crashed or lost its
    // CUDA context stops where it stopped, and its missing checks are charged to that.
    const bool exited_normally =
        outcome.kind == ProcessOutcome::Kind::Exited && (outcome.code == 0 || outcome.code == 1);
    if (exited_normally && !done)
        return "the lab's program exited with status " + std::to_string(outcome.code) +
               " without its last record: something ended it early";
    if (done && next_check != lab.checks.size())
        return "no record of check \"" + lab.checks[next_check].name + "\"";
    return "";
}

LabResult merge_lab_report(const RubricLab& lab, const std::string& tree, const std::vector<nlohmann::json>& lines,
                           const ProcessOutcome& outcome, const std::string& key) {
    LabResult r;
    r.id = lab.id;
    r.title = lab.title;
    r.tree = tree;
    if (!key.empty() && outcome.kind != ProcessOutcome::Kind::BuildFailed) {
        const std::string problem = channel_problem(lab, lines, outcome, key);
        if (!problem.empty()) {
            for (const auto& rc : lab.checks) {
                CheckResult c;
                c.name = rc.name;
                c.max_points = rc.points;
                c.cls = Failure::GraderIntegrity;
                c.visibility = rc.visibility;
                c.message = problem;
                c.hint = std::string(default_hint(c.cls));
                r.checks.push_back(std::move(c));
            }
            return r;
        }
    }

    std::map<std::string, nlohmann::json> ended;
    std::vector<std::string> started;
    for (const auto& j : lines) {
        const std::string ev = j.value("event", "");
        const std::string name = j.value("check", "");
        if (ev == "start") started.push_back(name);
        else if (ev == "end") ended[name] = j;
    }
    const bool build_failed = outcome.kind == ProcessOutcome::Kind::BuildFailed;
    // doctest exits 0 or 1 when it ran every check; 3 is a lab process ending itself after a
    // crashed kernel (that check is already reported); anything else ended it early.
    const bool completed = outcome.kind == ProcessOutcome::Kind::Exited && (outcome.code == 0 || outcome.code == 1);
    const bool context_lost = outcome.kind == ProcessOutcome::Kind::Exited && outcome.code == 3;
    bool earlier_interruption = false;
    for (const auto& rc : lab.checks) {
        CheckResult c;
        c.name = rc.name;
        c.max_points = rc.points;
        if (build_failed) {
            c.cls = outcome.build_class;
            c.message = outcome.detail.empty() ? "the lab did not build" : outcome.detail;
            c.hint = std::string(default_hint(c.cls));
        } else if (auto it = ended.find(rc.name); it != ended.end()) {
            const auto& j = it->second;
            const auto cls = failure_from_string(j.value("class", "crash"));
            c.cls = j.value("passed", false) ? Failure::None : cls.value_or(Failure::Crash);
            if (!j.value("passed", false) && c.cls == Failure::None) c.cls = Failure::WrongResult;
            c.message = j.value("message", "");
            c.hint = j.value("hint", "");
            c.notes = j.value("notes", std::vector<std::string>{});
            c.seconds = j.value("seconds", 0.0);
            if (const auto w = j.find("workload"); w != j.end() && w->is_object())
                for (const auto& [name, value] : w->items())
                    if (value.is_string() && workload_arg_allowed(name, value.get<std::string>()))
                        r.workload_args[name] = value.get<std::string>();
            if (j.contains("value")) {
                c.value = j["value"].get<double>();
                c.threshold = j.value("threshold", 0.0);
                c.unit = j.value("unit", "");
                c.higher_is_better = j.value("higher_is_better", true);
            }
            if (c.passed()) c.points = rc.points;
        } else if (std::find(started.begin(), started.end(), rc.name) != started.end() && !earlier_interruption) {
            c = interrupted(rc, outcome);
            earlier_interruption = true;
        } else {
            c.cls = Failure::NotRun;
            if (completed)
                c.message = "the lab program does not contain this check (rebuild, or the rubric is out of date)";
            else
                c.message = "not run: an earlier failure ended the lab's process";
            c.hint = std::string(default_hint(c.cls));
        }
        r.checks.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < r.checks.size() && i < lab.checks.size(); ++i) r.checks[i].visibility = lab.checks[i].visibility;
    // A process that died between checks (or before the first) still has to show up somewhere.
    if (!build_failed && !earlier_interruption && !completed && !context_lost) {
        for (auto& c : r.checks)
            if (c.cls == Failure::NotRun) {
                const RubricCheck rc{c.name, c.max_points};
                c = interrupted(rc, outcome);
                break;
            }
    }
    return r;
}

RubricLab pass_checks(const RubricLab& lab, bool measured) {
    RubricLab p = lab;
    p.checks.clear();
    for (const auto& c : lab.checks)
        if (c.measured == measured) p.checks.push_back(c);
    return p;
}

std::optional<double> alone_seconds_of(const std::vector<nlohmann::json>& lines, const std::string& key) {
    if (lines.empty()) return std::nullopt;
    const nlohmann::json& last = lines.back();
    if (!last.is_object() || last.value("event", "") != "done" || !last.contains("key") || last["key"] != key ||
        !last.contains("alone_seconds") || !last["alone_seconds"].is_number())
        return std::nullopt;
    const double s = last["alone_seconds"].get<double>();
    if (!(s >= 0)) return std::nullopt;
    return s;
}

std::optional<std::string> disturbed_reason_of(const std::vector<nlohmann::json>& lines, const std::string& key) {
    for (const nlohmann::json& l : lines)
        if (l.is_object() && l.value("event", "") == "disturbed" && l.contains("key") && l["key"] == key)
            return l.contains("reason") && l["reason"].is_string() ? l["reason"].get<std::string>()
                                                                 : std::string("no reason given");
    return std::nullopt;
}

LabResult merge_lab_passes(const RubricLab& lab, const std::string& tree, const PassReport& exact,
                           const PassReport& measured) {
    LabResult parts[2];
    const PassReport* reports[2] = {&exact, &measured};
    for (int m = 0; m < 2; ++m) {
        const RubricLab sub = pass_checks(lab, m == 1);
        if (sub.checks.empty()) continue;
        const PassReport& p = *reports[m];
        if (p.not_started.empty()) {
            parts[m] = merge_lab_report(sub, tree, p.lines, p.outcome, p.key);
            continue;
        }
        for (const auto& rc : sub.checks) {
            CheckResult c;
            c.name = rc.name;
            c.max_points = rc.points;
            c.visibility = rc.visibility;
            c.cls = Failure::NotRun;
            c.message = p.not_started;
            c.hint = std::string(default_hint(c.cls));
            parts[m].checks.push_back(std::move(c));
        }
    }
    LabResult r;
    r.id = lab.id;
    r.title = lab.title;
    r.tree = tree;
    std::size_t next[2] = {0, 0};
    for (const auto& rc : lab.checks) {
        const int m = rc.measured ? 1 : 0;
        r.checks.push_back(parts[m].checks.at(next[m]++));
    }
    r.workload_args = parts[0].workload_args;
    r.workload_args.insert(parts[1].workload_args.begin(), parts[1].workload_args.end());
    return r;
}

}  // namespace grading
