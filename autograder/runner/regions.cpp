// Student-region comparison (see regions.hpp).
#include "regions.hpp"

#include <sstream>

namespace grading {

namespace {
const std::string kBegin = "// BEGIN STUDENT REGION";
const std::string kEnd = "// END STUDENT REGION";

std::string rstrip(const std::string& s) {
    const auto e = s.find_last_not_of(" \t\r");
    return e == std::string::npos ? "" : s.substr(0, e + 1);
}
std::string strip(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    return b == std::string::npos ? "" : rstrip(s.substr(b));
}
}  // namespace

Skeleton skeleton_of(const std::string& text) {
    Skeleton sk;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    bool inside = false;
    while (std::getline(in, line)) {
        ++number;
        const std::string t = strip(line);
        if (t.rfind(kBegin, 0) == 0) {
            if (inside) {
                sk.error = "line " + std::to_string(number) + ": a region begins inside another";
                return sk;
            }
            inside = true;
            const std::string name = strip(t.substr(kBegin.size()));
            sk.regions.push_back(name);
            sk.lines.push_back("<region " + name + ">");
            sk.line_numbers.push_back(number);
        } else if (t.rfind(kEnd, 0) == 0) {
            if (!inside) {
                sk.error = "line " + std::to_string(number) + ": END STUDENT REGION without a BEGIN";
                return sk;
            }
            inside = false;
        } else if (!inside) {
            sk.lines.push_back(rstrip(line));
            sk.line_numbers.push_back(number);
        }
    }
    if (inside) sk.error = "the last student region is never closed";
    return sk;
}

std::string compare_skeletons(const std::string& starter, const std::string& solution, const std::string& starter_name,
                              const std::string& solution_name) {
    const Skeleton a = skeleton_of(starter), b = skeleton_of(solution);
    if (!a.error.empty()) return starter_name + ": " + a.error;
    if (!b.error.empty()) return solution_name + ": " + b.error;
    if (a.regions != b.regions) {
        auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
            return "[" + s + "]";
        };
        return "student regions differ: " + starter_name + " has " + join(a.regions) + ", " + solution_name + " has " +
               join(b.regions);
    }
    const std::size_t n = std::min(a.lines.size(), b.lines.size());
    for (std::size_t i = 0; i < n; ++i)
        if (a.lines[i] != b.lines[i])
            return "outside the student regions, " + starter_name + ":" + std::to_string(a.line_numbers[i]) + " reads\n  " +
                   a.lines[i] + "\nbut " + solution_name + ":" + std::to_string(b.line_numbers[i]) + " reads\n  " + b.lines[i];
    if (a.lines.size() != b.lines.size())
        return (a.lines.size() > b.lines.size() ? starter_name : solution_name) + " has extra lines after the last common one";
    return "";
}

}  // namespace grading
