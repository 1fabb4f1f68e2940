// rubric_check — the rubric and a lab program must list the same checks, with the same thresholds, each
// in the same pass (measured or exact).
//   rubric_check RUBRIC LAB_ID PROGRAM      runs PROGRAM --plan (no GPU needed) and compares
#include "results.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: rubric_check RUBRIC LAB_ID PROGRAM\n";
        return 2;
    }
    const grading::Rubric rubric = grading::load_rubric(argv[1]);
    const grading::RubricLab* lab = rubric.find(argv[2]);
    if (!lab) {
        std::cerr << "no lab " << argv[2] << " in " << argv[1] << "\n";
        return 1;
    }
    // The program's output for one option; nullopt (with what it printed) when it failed.
    auto run = [&](const std::string& option) -> std::optional<std::string> {
        const std::string cmd = std::string("'") + argv[3] + "' " + option;
        std::string text;
        FILE* p = popen(cmd.c_str(), "r");
        if (!p) return std::nullopt;
        char buf[4096];
        while (std::size_t got = fread(buf, 1, sizeof buf, p)) text.append(buf, got);
        if (pclose(p) != 0) {
            std::cerr << cmd << " failed:\n" << text;
            return std::nullopt;
        }
        return text;
    };
    const auto plan_text = run("--plan");
    if (!plan_text) return 1;
    const std::string& text = *plan_text;
    const auto plan = nlohmann::json::parse(text.substr(text.find('[')));
    std::set<std::string> in_program, in_rubric, measured_in_program;
    for (const auto& c : plan) {
        in_program.insert(c.at("name").get<std::string>());
        if (c.at("measured").get<bool>()) measured_in_program.insert(c.at("name").get<std::string>());
    }
    for (const auto& c : lab->checks) in_rubric.insert(c.name);
    int problems = 0;
    // Which pass runs each check: the program's (doctest suite "measured") and the rubric's (a threshold, or
    // "measured") must agree, or the runner would judge a pass's records against the other pass's checks.
    for (const auto& c : lab->checks)
        if (in_program.count(c.name) && c.measured != (measured_in_program.count(c.name) > 0))
            std::cout << "check \"" << c.name << "\" is " << (c.measured ? "" : "not ")
                      << "measured in the rubric (a threshold, or \"measured\") but " << (c.measured ? "not " : "")
                      << "in the program (doctest::test_suite(\"measured\"))\n",
                ++problems;
    for (const auto& n : in_program)
        if (!in_rubric.count(n)) std::cout << "check \"" << n << "\" is in the program but not in the rubric\n", ++problems;
    for (const auto& n : in_rubric)
        if (!in_program.count(n)) std::cout << "check \"" << n << "\" is in the rubric but not in the program\n", ++problems;
    // The thresholds: the rubric's (from which the handouts' tables are generated) must be the program's.
    const auto ttext = run("--thresholds");
    if (!ttext) return 1;
    const auto program_thresholds = nlohmann::json::parse(ttext->substr(ttext->find('{')));
    std::size_t compared = 0;
    for (const auto& c : lab->checks) {
        const bool in_prog = program_thresholds.contains(c.name);
        if (c.threshold && !in_prog)
            std::cout << "check \"" << c.name << "\" has a threshold in the rubric but none in the program\n", ++problems;
        else if (!c.threshold && in_prog)
            std::cout << "check \"" << c.name << "\" has a threshold in the program but none in the rubric\n", ++problems;
        else if (c.threshold && program_thresholds[c.name].get<double>() != *c.threshold)
            std::cout << "check \"" << c.name << "\": the rubric says " << *c.threshold << ", the program uses "
                      << program_thresholds[c.name].get<double>() << "\n",
                ++problems;
        else if (c.threshold) ++compared;
    }
    for (const auto& [name, value] : program_thresholds.items())
        if (!in_rubric.count(name)) std::cout << "threshold for \"" << name << "\", which is not a rubric check\n", ++problems;
    std::cout << "lab " << lab->id << ": " << in_rubric.size() << " rubric checks, " << in_program.size()
              << " program checks, " << compared << " thresholds agree, " << problems << " mismatch(es)\n";
    return problems == 0 ? 0 : 1;
}
