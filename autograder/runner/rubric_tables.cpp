// rubric_tables — the handouts' "How it is graded" tables and the README's points table, generated from
// the rubric (autograder/labs/NN-name/rubric.json), so that the numbers live in one place.
//
//   rubric_tables RUBRIC_DIR SOURCE_ROOT            exit 1, naming each table that is out of date
//   rubric_tables RUBRIC_DIR SOURCE_ROOT --write    rewrite the tables in place
//
// A table sits between the lines "<!-- BEGIN RUBRIC TABLE -->" and "<!-- END RUBRIC TABLE -->" of
// labs/NN-name/README.md (that lab's checks) and of README.md (every lab's points and thresholds); the
// README's "<!-- BEGIN MARGIN TABLE -->" block lists each speed threshold against the reference's
// recorded figures on every GPU; a handout may hold a "<!-- BEGIN REFERENCE TABLE -->" block, its lab's
// speed thresholds against the reference's figures, one column a GPU (written only where the block is).
// Either way, a threshold that leaves the reference less than 25% above
// it (or below it) on a GPU is an error: the course's calibration rule. The course's list of labs, from
// each rubric's "topic" and "teaches", sits between "<!-- BEGIN LAB TABLE -->" and "<!-- END LAB TABLE -->"
// of README.md and of docs/student-release-README.md, so that a lab is added by its own folders.
#include "process.hpp"
#include "reports.hpp"
#include "results.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <optional>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using namespace grading;

namespace {
const std::string kBegin = "<!-- BEGIN RUBRIC TABLE -->";
const std::string kEnd = "<!-- END RUBRIC TABLE -->";
const std::string kMarginBegin = "<!-- BEGIN MARGIN TABLE -->";
const std::string kMarginEnd = "<!-- END MARGIN TABLE -->";
const std::string kReferenceBegin = "<!-- BEGIN REFERENCE TABLE -->";
const std::string kReferenceEnd = "<!-- END REFERENCE TABLE -->";
const std::string kLabsBegin = "<!-- BEGIN LAB TABLE -->";
const std::string kLabsEnd = "<!-- END LAB TABLE -->";
constexpr double kMinMargin = 0.25;  // the reference at least 25% above each threshold, on every GPU

// A threshold or a measured ratio: two decimals, always (0.70, 4.00, 27.50).
std::string number(double v) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << v;
    return s.str();
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
    for (const auto& c : lab.checks) s << "| " << c.name << " | " << points_str(c.points) << " | " << criterion(c) << " |\n";
    if (lab.sanitizer)
        s << "| " << lab.sanitizer->name << " | " << points_str(lab.sanitizer->points) << " | " << lab.sanitizer->criterion
          << " |\n";
    if (lab.shared_use)
        s << "| " << lab.shared_use->name << " | " << points_str(lab.shared_use->points) << " | " << lab.shared_use->criterion
          << " |\n";
    if (lab.bank_conflicts)
        s << "| " << lab.bank_conflicts->name << " | " << points_str(lab.bank_conflicts->points) << " | "
          << lab.bank_conflicts->criterion << " |\n";
    s << "| **total** | **" << points_str(lab.max_points()) << "** | |\n";
    return s.str();
}

// "six" for 6: how many labs, in words where it is short.
std::string count_word(std::size_t n) {
    static const char* const words[] = {"zero", "one", "two",   "three",  "four",  "five",  "six",
                                        "seven", "eight", "nine", "ten", "eleven", "twelve"};
    return n < std::size(words) ? words[n] : std::to_string(n);
}

std::string course_table(const Rubric& rubric) {
    std::ostringstream s;
    s << "| Lab | Points | Speed thresholds (ratios measured in the same run) |\n| --- | --- | --- |\n";
    double total = 0;
    for (const auto& lab : rubric.labs) {
        std::string speed;
        for (const auto& c : lab.checks)
            if (c.threshold) speed += (speed.empty() ? "" : "; ") + c.name + ": ≥ " + number(*c.threshold);
        s << "| " << lab.id << " " << lab.title << " | " << points_str(lab.max_points()) << " | " << speed << " |\n";
        total += lab.max_points();
    }
    s << "| **all " << count_word(rubric.labs.size()) << "** | **" << points_str(total) << "** | |\n";
    return s.str();
}

// The course's labs, each linked to its handout, with what it is about and what it teaches.
std::string labs_table(const Rubric& rubric) {
    std::ostringstream s;
    s << "| Lab | Topic | You learn |\n| --- | --- | --- |\n";
    for (const auto& lab : rubric.labs)
        s << "| [" << lab.id << "](labs/" << lab.dir << "/README.md) | " << lab.topic << " | " << lab.teaches << " |\n";
    return s.str();
}

std::string percent(double m) { return std::to_string(static_cast<int>(m * 100 + (m < 0 ? -0.5 : 0.5))) + "%"; }

// Each speed threshold against the reference's lowest figure on every GPU: the margin the 25% rule is
// about. Margins below the rule are collected in @p problems.
std::string margin_table(const Rubric& rubric, std::vector<std::string>& problems) {
    std::ostringstream s;
    s << "| Lab | Check | Threshold | Reference (lowest to highest seen) and margin, per GPU |\n| --- | --- | --- | --- |\n";
    for (const auto& lab : rubric.labs)
        for (const auto& c : lab.checks) {
            if (!c.threshold) continue;
            std::string per_gpu;
            for (const auto& [gpu, range] : c.reference) {
                const double margin = range.first / *c.threshold - 1;
                per_gpu += (per_gpu.empty() ? "" : "; ") + gpu + ": " + number(range.first) +
                           (range.second != range.first ? " to " + number(range.second) : std::string()) + " (" +
                           percent(margin) + ")";
                if (margin < kMinMargin)
                    problems.push_back("lab " + lab.id + " \"" + c.name + "\": the reference's " + number(range.first) +
                                       " on " + gpu + " is only " + percent(margin) + " above the threshold " +
                                       number(*c.threshold) + " (the rule is 25%)");
            }
            if (c.reference.empty())
                problems.push_back("lab " + lab.id + " \"" + c.name + "\": a threshold with no reference figures");
            s << "| " << lab.id << " | " << c.name << " | " << number(*c.threshold) << " | " << per_gpu << " |\n";
        }
    return s.str();
}

// One lab's speed thresholds against the reference's figures in the grader, a column for each GPU recorded
// (the margin table's figures for one lab, laid out so that each GPU's figures stand once).
std::string reference_table(const RubricLab& lab) {
    std::vector<std::string> gpus;
    for (const auto& c : lab.checks)
        for (const auto& [gpu, range] : c.reference)
            if (std::find(gpus.begin(), gpus.end(), gpu) == gpus.end()) gpus.push_back(gpu);
    std::ostringstream s;
    s << "| check | threshold |";
    for (const auto& g : gpus) s << " reference on the " << g << " (margin) |";
    s << "\n| --- | --- |";
    for (std::size_t i = 0; i < gpus.size(); ++i) s << " --- |";
    s << "\n";
    for (const auto& c : lab.checks) {
        if (!c.threshold) continue;
        s << "| " << c.name << " | " << number(*c.threshold) << " |";
        for (const auto& g : gpus) {
            std::string cell = "—";
            for (const auto& [gpu, range] : c.reference)
                if (gpu == g)
                    cell = number(range.first) + (range.second != range.first ? " to " + number(range.second) : std::string()) +
                           " (" + percent(range.first / *c.threshold - 1) + ")";
            s << " " << cell << " |";
        }
        s << "\n";
    }
    return s.str();
}

// Replaces what lies between the markers of @p text with @p table; nullopt when the markers are missing.
std::optional<std::string> with_table(const std::string& text, const std::string& table, const std::string& begin,
                                      const std::string& end) {
    const auto b = text.find(begin);
    if (b == std::string::npos) return std::nullopt;
    const auto start = text.find('\n', b);
    const auto e = text.find(end, start);
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
    // Each block of a file the rubric writes: its path, its table and its markers.
    struct Block {
        fs::path path;
        std::string table, begin, end;
    };
    const fs::path root = argv[2];
    std::vector<Block> blocks;
    for (const auto& lab : rubric.labs) {
        if (lab.topic.empty() || lab.teaches.empty()) {
            std::cerr << "rubric_tables: lab " << lab.id << " has no \"topic\" or no \"teaches\" (the README's list of labs)\n";
            return 1;
        }
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
        blocks.push_back({root / "labs" / lab.dir / "README.md", lab_table(lab), kBegin, kEnd});
    }
    blocks.push_back({root / "README.md", course_table(rubric), kBegin, kEnd});
    std::vector<std::string> problems;
    blocks.push_back({root / "README.md", margin_table(rubric, problems), kMarginBegin, kMarginEnd});
    for (const auto& p : problems) std::cerr << "rubric_tables: " << p << "\n";
    if (!problems.empty()) return 1;
    // The handouts that hold a reference table: where the block is, it is kept up to date.
    for (const auto& lab : rubric.labs) {
        const fs::path handout = root / "labs" / lab.dir / "README.md";
        if (read_text_file(handout.string()).value_or("").find(kReferenceBegin) != std::string::npos)
            blocks.push_back({handout, reference_table(lab), kReferenceBegin, kReferenceEnd});
    }
    for (const char* readme : {"README.md", "docs/student-release-README.md"})
        blocks.push_back({root / readme, labs_table(rubric), kLabsBegin, kLabsEnd});
    int stale = 0;
    for (const Block& block : blocks) {
        const auto text = read_text_file(block.path.string());
        const auto updated = text ? with_table(*text, block.table, block.begin, block.end) : std::nullopt;
        if (!updated) {
            std::cerr << block.path.string() << ": no " << block.begin << " ... block\n";
            return 1;
        }
        if (*updated == *text) continue;
        if (write) {
            std::ofstream(block.path, std::ios::binary | std::ios::trunc) << *updated;
            std::cout << "updated " << block.path.string() << "\n";
        } else {
            std::cout << block.path.string() << ": the table is out of date with the rubric; run rubric_tables --write\n";
            ++stale;
        }
    }
    if (!write)
        std::cout << blocks.size() - static_cast<std::size_t>(stale) << " of " << blocks.size()
                  << " tables up to date; every threshold leaves the reference at least 25% above it on every GPU recorded\n";
    return stale ? 1 : 0;
}
