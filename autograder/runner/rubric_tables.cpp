// rubric_tables — the handouts' "How it is graded" tables and the README's points table, generated from
// the rubric (autograder/labs/NN-name/rubric.json), so that the numbers live in one place.
//
//   rubric_tables RUBRIC_DIR SOURCE_ROOT            exit 1, naming each table that is out of date
//   rubric_tables RUBRIC_DIR SOURCE_ROOT --write    rewrite the tables in place
//
// A table sits between the lines "<!-- BEGIN RUBRIC TABLE -->" and "<!-- END RUBRIC TABLE -->" of
// labs/NN-name/README.md (that lab's checks) and of README.md (every lab's points and thresholds).
#include "process.hpp"
#include "results.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using namespace grading;

namespace {
const std::string kBegin = "<!-- BEGIN RUBRIC TABLE -->";
const std::string kEnd = "<!-- END RUBRIC TABLE -->";

std::string number(double v) {
    std::ostringstream s;
    s << std::setprecision(6) << v;
    std::string t = s.str();
    if (v < 10 && t.find('.') != std::string::npos && t.size() == t.find('.') + 2) t += "0";  // 0.7 -> 0.70
    return t;
}

// The check's criterion, its "{threshold}" replaced by the rubric's threshold (so the number is written once).
std::string criterion(const RubricCheck& c) {
    std::string t = c.criterion;
    const std::string key = "{threshold}";
    if (const auto at = t.find(key); at != std::string::npos && c.threshold) t.replace(at, key.size(), number(*c.threshold));
    return t;
}

std::string lab_table(const RubricLab& lab) {
    std::ostringstream s;
    s << "| check | points | passes when |\n| --- | --- | --- |\n";
    for (const auto& c : lab.checks) s << "| " << c.name << " | " << number(c.points) << " | " << criterion(c) << " |\n";
    if (lab.sanitizer)
        s << "| " << lab.sanitizer->name << " | " << number(lab.sanitizer->points) << " | " << lab.sanitizer->criterion
          << " |\n";
    s << "| **total** | **" << number(lab.max_points()) << "** | |\n";
    return s.str();
}

std::string course_table(const Rubric& rubric) {
    std::ostringstream s;
    s << "| Lab | Points | Speed thresholds (ratios measured in the same run) |\n| --- | --- | --- |\n";
    double total = 0;
    for (const auto& lab : rubric.labs) {
        std::string speed;
        for (const auto& c : lab.checks)
            if (c.threshold) speed += (speed.empty() ? "" : "; ") + c.name + ": ≥ " + number(*c.threshold);
        s << "| " << lab.id << " " << lab.title << " | " << number(lab.max_points()) << " | " << speed << " |\n";
        total += lab.max_points();
    }
    s << "| **all six** | **" << number(total) << "** | |\n";
    return s.str();
}

// Replaces what lies between the markers of @p text with @p table; nullopt when the markers are missing.
std::optional<std::string> with_table(const std::string& text, const std::string& table) {
    const auto b = text.find(kBegin);
    if (b == std::string::npos) return std::nullopt;
    const auto start = text.find('\n', b);
    const auto e = text.find(kEnd, start);
    if (start == std::string::npos || e == std::string::npos) return std::nullopt;
    return text.substr(0, start + 1) + table + text.substr(e);
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc > 4 || (argc == 4 && std::string(argv[3]) != "--write")) {
        std::cerr << "usage: rubric_tables RUBRIC_DIR SOURCE_ROOT [--write]\n";
        return 2;
    }
    const bool write = argc == 4;
    Rubric rubric;
    try {
        rubric = load_rubric(argv[1]);
    } catch (const std::exception& e) {
        std::cerr << "rubric_tables: " << e.what() << "\n";
        return 2;
    }
    std::vector<std::pair<fs::path, std::string>> targets;
    for (const auto& lab : rubric.labs) {
        for (const auto& c : lab.checks) {
            if (c.criterion.empty()) {
                std::cerr << "rubric_tables: lab " << lab.id << " check \"" << c.name << "\" has no \"criterion\"\n";
                return 1;
            }
            if (c.threshold.has_value() != (c.criterion.find("{threshold}") != std::string::npos)) {
                std::cerr << "rubric_tables: lab " << lab.id << " check \"" << c.name
                          << "\": a \"threshold\" goes with one \"{threshold}\" in its criterion\n";
                return 1;
            }
        }
        targets.emplace_back(fs::path(argv[2]) / "labs" / lab.dir / "README.md", lab_table(lab));
    }
    targets.emplace_back(fs::path(argv[2]) / "README.md", course_table(rubric));
    int stale = 0;
    for (const auto& [path, table] : targets) {
        const auto text = read_text_file(path.string());
        const auto updated = text ? with_table(*text, table) : std::nullopt;
        if (!updated) {
            std::cerr << path.string() << ": no " << kBegin << " ... " << kEnd << " block\n";
            return 1;
        }
        if (*updated == *text) continue;
        if (write) {
            std::ofstream(path, std::ios::binary | std::ios::trunc) << *updated;
            std::cout << "updated " << path.string() << "\n";
        } else {
            std::cout << path.string() << ": the table is out of date with the rubric; run rubric_tables --write\n";
            ++stale;
        }
    }
    if (!write) std::cout << targets.size() - static_cast<std::size_t>(stale) << " of " << targets.size() << " tables up to date\n";
    return stale ? 1 : 0;
}
