// Report formats (see reports.hpp).
#include "reports.hpp"

#include <algorithm>
#include <array>
#include <iomanip>
#include <optional>
#include <regex>
#include <string_view>
#include <cstring>
#include <sstream>

namespace grading {

std::string num(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

namespace {

std::string figure(const CheckResult& c) {
    if (!c.value) return "";
    return num(*c.value, 2) + (c.unit.empty() || c.unit[0] == 'x' ? "" : " ") + c.unit;
}
std::string threshold(const CheckResult& c) {
    if (!c.value) return "";
    return std::string(c.higher_is_better ? ">= " : "<= ") + num(c.threshold, 2);
}
std::string result_word(const CheckResult& c) {
    return c.skipped ? "not run" : c.passed() ? "pass" : "FAIL: " + title(c.cls);
}

std::string pad(std::string s, std::size_t w) {
    // Pads by characters on screen (UTF-8 continuation bytes take no column).
    std::size_t cols = 0;
    for (unsigned char ch : s) cols += (ch & 0xC0) != 0x80;
    if (cols < w) s.append(w - cols, ' ');
    return s;
}

std::string check_output(const CheckResult& c) {
    std::string out;
    if (c.skipped) out += c.message + "\n";
    if (!c.passed()) {
        out += title(c.cls) + ": " + c.message + "\n";
        if (!c.hint.empty()) out += "hint: " + c.hint + "\n";
    }
    if (c.value) out += "measured " + figure(c) + " (threshold " + threshold(c) + ")\n";
    for (const auto& n : c.notes) out += n + "\n";
    return out;
}
}  // namespace

namespace {
// Lab @p lab's seconds in grading @p r by kind: build, exact checks, measured checks, of which alone, memory
// check, Nsight Compute (one run judges both of its items).
std::array<double, 6> time_row(const LabResult& r, const RubricLab& lab) {
    std::array<double, 6> row = {r.build_seconds, 0, 0, 0, 0, 0};
    for (const CheckResult& c : r.checks) {
        if (lab.sanitizer && c.name == lab.sanitizer->name) {
            row[4] += c.seconds;
        } else if ((lab.shared_use && c.name == lab.shared_use->name) ||
                   (lab.bank_conflicts && c.name == lab.bank_conflicts->name)) {
            row[5] = std::max(row[5], c.seconds);
        } else {
            bool timed = false;
            for (const RubricCheck& rc : lab.checks)
                if (rc.name == c.name) timed = rc.measured;
            row[timed ? 2 : 1] += c.seconds;
        }
    }
    // The measured checks' time alone on the GPU, as the lab's program counted it; all of it where the
    // runner held the lock alone for them.
    row[3] = r.alone_seconds >= 0 ? r.alone_seconds : row[2];
    return row;
}
}  // namespace

double gpu_alone_seconds(const LabResult& r, const RubricLab& lab) {
    const auto row = time_row(r, lab);
    return row[3] + row[5];
}

std::string time_breakdown(const std::vector<LabResult>& results, const std::vector<const RubricLab*>& labs,
                           bool gpu_lock_taken) {
    std::ostringstream s;
    s << "Where the time went (seconds):\n"
      << pad("lab", 6) << pad("build", 9) << pad("exact checks", 15) << pad("measured checks", 18) << pad("GPU alone", 12)
      << pad("memory check", 15) << "Nsight Compute\n";
    double sum[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < results.size() && i < labs.size(); ++i) {
        const auto row = time_row(results[i], *labs[i]);
        const LabResult& r = results[i];
        s << pad(r.id, 6) << pad(num(row[0], 1), 9) << pad(num(row[1], 1), 15) << pad(num(row[2], 1), 18)
          << pad(num(row[3], 1), 12) << pad(num(row[4], 1), 15) << num(row[5], 1) << "\n";
        for (int k = 0; k < 6; ++k) sum[k] += row[k];
    }
    s << pad("all", 6) << pad(num(sum[0], 1), 9) << pad(num(sum[1], 1), 15) << pad(num(sum[2], 1), 18)
      << pad(num(sum[3], 1), 12) << pad(num(sum[4], 1), 15) << num(sum[5], 1) << "\n";
    const double alone = sum[3] + sum[5], shared = sum[1] + (sum[2] - sum[3]) + sum[4];
    s << "GPU to itself (what the measured checks time or size by the GPU's memory, and Nsight Compute): "
      << num(alone, 1) << " s; beside other gradings' work (exact checks, the rest of the measured checks, memory "
                          "check): "
      << num(shared, 1) << " s\n";
    if (gpu_lock_taken)
        s << "the GPU lock: held alone " << num(alone, 1) << " s, shared " << num(shared, 1) << " s\n";
    return s.str();
}

std::string summary_table(const std::vector<LabResult>& labs, const RunInfo& info) {
    std::ostringstream s;
    s << "GPU:  " << info.gpu << "\nseed: " << info.seed << (info.secret ? " (and the instructor's secret)" : "") << "\n\n";
    s << pad("lab", 5) << pad("check", 56) << pad("result", 30) << pad("figure", 13) << pad("threshold", 11) << "points\n";
    double total = 0, max_total = 0;
    for (const auto& lab : labs) {
        for (const auto& c : lab.checks) {
            std::string name = c.name.size() > 54 ? c.name.substr(0, 53) + "~" : c.name;
            s << pad(lab.id, 5) << pad(name, 56) << pad(result_word(c), 30) << pad(figure(c), 13)
              << pad(threshold(c), 11) << points_str(c.points) << "/" << points_str(c.max_points) << "\n";
        }
        total += lab.points();
        max_total += lab.max_points();
    }
    s << "\n";
    for (const auto& lab : labs) {
        s << "Lab " << lab.id << " (" << lab.title << ", " << lab.tree << "): " << points_str(lab.points()) << "/"
          << points_str(lab.max_points()) << (lab.passed() ? "  PASS" : "  FAIL (" + title(lab.primary_failure()) + ")")
          << "   [build " << num(lab.build_seconds, 1) << " s, checks " << num(lab.run_seconds, 1) << " s";
        if (!lab.log_path.empty()) s << ", log " << lab.log_path;
        s << "]\n";
        for (const auto& n : lab.notes) s << "  note: " << n << "\n";
        for (const auto& c : lab.checks) {
            if (c.value) {  // speed checks: show the figures behind the ratio, pass or fail
                s << "  - " << c.name << ": " << figure(c) << " (threshold " << threshold(c) << ")\n";
                for (const auto& n : c.notes) s << "      " << n << "\n";
            }
            if (c.skipped) s << "  - " << c.name << ": " << c.message << "\n";
            if (c.passed() || c.cls == Failure::NotRun) continue;
            if (!c.value) s << "  - " << c.name << "\n";
            s << "      " << title(c.cls) << ": " << c.message << "\n";
            if (!c.hint.empty()) s << "      hint: " << c.hint << "\n";
        }
    }
    s << "\nTotal: " << points_str(total) << "/" << points_str(max_total) << "   (build " << num(info.build_seconds, 1)
      << " s, grading " << num(info.grade_seconds, 1) << " s)\n";
    return s.str();
}

namespace {
// Plain text as Markdown: characters Markdown would read as markup are escaped, each line a paragraph.
std::string markdown(const std::string& text) {
    std::string out;
    for (char ch : text) {
        if (ch == '\n') out += "\n\n";
        else if (std::string_view("\\`*_{}[]<>#|").find(ch) != std::string_view::npos) out += std::string("\\") + ch;
        else out += ch;
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

// "yours 4426 GB/s" (or TFLOP/s, GB/s counting read + write): the figure a speed check's notes give
// for the submission, for Gradescope's leaderboard.
std::optional<std::pair<double, std::string>> achieved(const CheckResult& c) {
    static const std::regex yours(R"(yours ([0-9]+(?:\.[0-9]+)?) (GB/s|TFLOP/s))");
    for (const auto& n : c.notes) {
        std::smatch m;
        if (std::regex_search(n, m, yours)) return std::make_pair(std::stod(m[1]), m[2].str());
    }
    return std::nullopt;
}
}  // namespace

nlohmann::json gradescope_json(const std::vector<LabResult>& labs, const RunInfo& info) {
    nlohmann::json tests = nlohmann::json::array();
    nlohmann::json leaderboard = nlohmann::json::array();
    double total = 0;
    std::string notes;
    for (const auto& lab : labs) {
        for (const auto& n : lab.notes) notes += "\nLab " + lab.id + ": " + n;
        for (const auto& c : lab.checks) {
            tests.push_back({{"name", "Lab " + lab.id + ": " + c.name},
                             {"number", lab.id},
                             {"score", c.points},
                             {"max_score", c.max_points},
                             {"status", c.passed() ? "passed" : "failed"},
                             {"visibility", c.visibility},
                             {"execution_time", c.seconds},
                             {"tags", nlohmann::json::array({"lab" + lab.id, std::string(to_string(c.cls))})},
                             {"output", markdown(check_output(c))}});
            // Only a correct, measured result goes on the leaderboard.
            if (const auto a = achieved(c); a && (c.passed() || c.cls == Failure::TooSlow))
                leaderboard.push_back(
                    {{"name", "Lab " + lab.id + ": " + c.name + " (" + a->second + ")"}, {"value", a->first}, {"order", "desc"}});
        }
        total += lab.points();
    }
    nlohmann::json out = {{"score", total},
                          {"execution_time", info.build_seconds + info.grade_seconds},
                          {"output", markdown("GPU: " + info.gpu + "\nseed: " + std::to_string(info.seed) +
                                             (info.secret ? " (and the instructor's secret)" : "") + notes)},
                          {"output_format", "md"},
                          {"test_output_format", "md"},
                          {"visibility", "visible"},
                          {"stdout_visibility", "visible"},
                          {"tests", tests}};
    if (!leaderboard.empty()) out["leaderboard"] = leaderboard;
    return out;
}

std::string points_str(double p) { return p == static_cast<long long>(p) ? num(p, 0) : num(p, 1); }

nlohmann::json student_summary(const std::string& student, const std::vector<LabResult>& labs, const RunInfo& info,
                               bool graded) {
    nlohmann::json out = {{"student", student}, {"gpu", info.gpu}, {"seed", info.seed}, {"secret", info.secret}, {"graded", graded}};
    nlohmann::json lab_rows = nlohmann::json::array();
    double points = 0, max_points = 0;
    bool all_pass = true;
    for (const auto& lab : labs) {
        nlohmann::json checks = nlohmann::json::array();
        for (const auto& c : lab.checks)
            checks.push_back({{"name", c.name},
                              {"points", c.points},
                              {"max_points", c.max_points},
                              {"class", c.skipped ? "not_run" : std::string(to_string(c.cls))}});
        const Failure f = lab.primary_failure();
        const bool built = f == Failure::None || f == Failure::NotRun;
        std::string cls = graded ? std::string(to_string(f)) : built ? "compiles" : std::string(to_string(f));
        all_pass = all_pass && graded && lab.passed();
        lab_rows.push_back({{"id", lab.id},
                            {"title", lab.title},
                            {"points", lab.points()},
                            {"max_points", lab.max_points()},
                            {"class", cls},
                            {"checks", checks}});
        points += lab.points();
        max_points += lab.max_points();
    }
    out["labs"] = lab_rows;
    out["points"] = points;
    out["max_points"] = max_points;
    out["status"] = !graded ? "built" : all_pass ? "pass" : "fail";
    return out;
}

namespace {
// A text field of the gradebook. One that a spreadsheet would take for a formula (=, +, -, @, a tab or a
// carriage return first: a roster folder named "=HYPERLINK(...)", say) gets a ' in front, which shows it as
// the text it is.
std::string csv_field(const std::string& value) {
    const std::string v = !value.empty() && std::strchr("=+-@\t\r", value[0]) ? "'" + value : value;
    if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
    std::string out = "\"";
    for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}
}  // namespace

std::string gradebook_csv(const std::vector<nlohmann::json>& summaries, const Rubric& rubric) {
    std::ostringstream s;
    s << "student,status,points,max_points";
    for (const auto& lab : rubric.labs) s << ",lab" << lab.id << "_points,lab" << lab.id << "_max,lab" << lab.id << "_class";
    s << "\n";
    for (const auto& row : summaries) {
        s << csv_field(row.value("student", "")) << "," << csv_field(row.value("status", "")) << ","
          << points_str(row.value("points", 0.0)) << "," << points_str(row.value("max_points", 0.0));
        for (const auto& lab : rubric.labs) {
            const nlohmann::json* found = nullptr;
            if (row.contains("labs") && row["labs"].is_array())
                for (const auto& l : row["labs"])
                    if (l.is_object() && l.value("id", "") == lab.id) found = &l;
            if (found)
                s << "," << points_str(found->value("points", 0.0)) << "," << points_str(found->value("max_points", 0.0))
                  << "," << csv_field(found->value("class", ""));
            else
                s << ",,,";
        }
        s << "\n";
    }
    return s.str();
}

std::string xml_escape(const std::string& in) {
    std::string out;
    for (char ch : in) {
        switch (ch) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            // XML 1.0 forbids most control characters, even escaped.
            if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n' && ch != '\t' && ch != '\r') out += ' ';
            else out += ch;
        }
    }
    return out;
}

std::string junit_xml(const std::vector<LabResult>& labs, const RunInfo& info) {
    std::size_t tests = 0, failures = 0, skipped = 0;
    for (const auto& lab : labs)
        for (const auto& c : lab.checks) tests++, failures += !c.passed(), skipped += c.skipped;
    std::ostringstream s;
    s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s << "<testsuites name=\"autograder\" tests=\"" << tests << "\" failures=\"" << failures << "\" skipped=\""
      << skipped << "\" time=\""
      << num(info.build_seconds + info.grade_seconds, 3) << "\">\n";
    for (const auto& lab : labs) {
        std::size_t lab_failures = 0, lab_skipped = 0;
        for (const auto& c : lab.checks) lab_failures += !c.passed(), lab_skipped += c.skipped;
        s << "  <testsuite name=\"lab" << lab.id << " " << xml_escape(lab.title) << " (" << xml_escape(lab.tree)
          << ")\" tests=\"" << lab.checks.size() << "\" failures=\"" << lab_failures << "\" errors=\"0\" skipped=\"" << lab_skipped << "\" time=\""
          << num(lab.run_seconds, 3) << "\">\n";
        s << "    <properties>\n      <property name=\"gpu\" value=\"" << xml_escape(info.gpu) << "\"/>\n"
          << "      <property name=\"seed\" value=\"" << info.seed << "\"/>\n    </properties>\n";
        for (const auto& c : lab.checks) {
            s << "    <testcase classname=\"lab" << lab.id << "\" name=\"" << xml_escape(c.name) << "\" time=\""
              << num(c.seconds, 3) << "\"";
            if (c.skipped) {
                s << ">\n      <skipped message=\"" << xml_escape(c.message) << "\"/>\n    </testcase>\n";
                continue;
            }
            if (c.passed()) {
                s << "/>\n";
                continue;
            }
            s << ">\n      <failure type=\"" << to_string(c.cls) << "\" message=\"" << xml_escape(c.message) << "\">"
              << xml_escape(check_output(c)) << "</failure>\n    </testcase>\n";
        }
        s << "  </testsuite>\n";
    }
    s << "</testsuites>\n";
    return s.str();
}

}  // namespace grading
