#include "gradebook.hpp"

#include <map>
#include <regex>
#include <sstream>

namespace service {

nlohmann::json lab_row(const GradedLab& g, const LabSource& lab) {
    const auto results = nlohmann::json::parse(g.results_json.empty() ? "null" : g.results_json, nullptr, false);
    if (results.is_object() && results.contains("tests")) {
        double points = 0, max_points = 0;
        std::string cls = "pass";
        bool found = false;
        for (const auto& t : results["tests"]) {
            if (t.value("number", "") != lab.id) continue;
            found = true;
            points += t.value("score", 0.0);
            max_points += t.value("max_score", 0.0);
            // The lab's class: its first failed check's (the second tag of a test is its class).
            if (cls == "pass" && t.value("status", "") == "failed" && t.contains("tags") && t["tags"].size() > 1)
                cls = t["tags"][1].get<std::string>();
        }
        if (!found) return nullptr;
        return {{"id", lab.id}, {"points", points}, {"max_points", max_points}, {"class", cls}, {"submission", g.submission}};
    }
    // A build-only grading prints one line a lab: compiles, DOES NOT COMPILE, or REFUSED (class).
    const std::regex line("^Lab " + lab.id + " \\([^\\n]*\\): (compiles|DOES NOT COMPILE|REFUSED \\((\\w+)\\))");
    std::istringstream in(g.output);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (!std::regex_search(l, m, line)) continue;
        const std::string cls = m[1] == "compiles" ? "compiles" : m[1] == "DOES NOT COMPILE" ? "does_not_compile" : m[2].str();
        return {{"id", lab.id}, {"points", 0}, {"max_points", 0}, {"class", cls}, {"submission", g.submission}};
    }
    return nullptr;
}

std::vector<nlohmann::json> gradebook_rows(const std::vector<std::string>& students, const std::vector<GradedLab>& graded,
                                           const std::vector<LabSource>& catalog) {
    std::map<std::string, std::vector<const GradedLab*>> by_student;
    for (const auto& g : graded) by_student[g.student].push_back(&g);
    std::vector<nlohmann::json> rows;
    for (const auto& s : students) {
        nlohmann::json labs = nlohmann::json::array();
        double points = 0, max_points = 0;
        bool all_pass = true, built_only = false;
        for (const auto& lab : catalog) {
            nlohmann::json row;
            for (const GradedLab* g : by_student[s])
                if (g->lab_id == lab.id) row = lab_row(*g, lab);
            if (row.is_null()) {
                all_pass = false;
                continue;
            }
            points += row["points"].get<double>();
            max_points += row["max_points"].get<double>();
            all_pass = all_pass && row["class"] == "pass";
            built_only = built_only || row["class"] == "compiles";
            labs.push_back(row);
        }
        const std::string status = labs.empty() ? "not graded" : built_only ? "built" : all_pass ? "pass" : "fail";
        rows.push_back({{"student", s}, {"status", status}, {"points", points}, {"max_points", max_points}, {"labs", labs}});
    }
    return rows;
}

}  // namespace service
