// audit_lab — the second step of building a lab: read the compiled lab object's symbols and host code
// and refuse what the course does not allow (see audit.hpp). Part of the build, so a refused call is
// named by `make check` even on a machine without a GPU.
//
//   audit_lab --lab NN --object LAB.o --rubric RUBRIC.json --nm NM --objdump OBJDUMP --verdict VERDICT.json
//             [--grader-objects A.o:B.o:...]...
//
// Exit status: 0 allowed; 1 refused (the verdict and stderr say why); 2 bad usage or a tool failed.
#include "audit.hpp"
#include "verdict.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {
// Runs a command and returns its standard output; nullopt when it cannot be run or fails.
std::optional<std::string> output_of(const std::vector<std::string>& argv) {
    std::string cmd;
    for (const auto& a : argv) {
        std::string q = "'";
        for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        cmd += q + "' ";
    }
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return std::nullopt;
    std::string out;
    std::array<char, 65536> buf;
    std::size_t got = 0;
    while ((got = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), got);
    return pclose(p) == 0 ? std::optional<std::string>(out) : std::nullopt;
}
}  // namespace

int main(int argc, char** argv) {
    std::string lab, object, rubric, nm = "nm", objdump = "objdump", verdict_path;
    std::vector<std::string> grader_objects;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i], v = argv[i + 1];
        if (a == "--lab") lab = v;
        else if (a == "--grader-objects") {  // a ':'-separated list of object files
            std::size_t from = 0;
            while (from <= v.size()) {
                const std::size_t to = std::min(v.find(':', from), v.size());
                if (to > from) grader_objects.push_back(v.substr(from, to - from));
                from = to + 1;
            }
        }
        else if (a == "--object") object = v;
        else if (a == "--rubric") rubric = v;
        else if (a == "--nm") nm = v;
        else if (a == "--objdump") objdump = v;
        else if (a == "--verdict") verdict_path = v;
        else {
            std::cerr << "audit_lab: bad argument '" << a << "'\n";
            return 2;
        }
    }
    if (lab.empty() || object.empty() || rubric.empty() || verdict_path.empty() || argc % 2 == 0) {
        std::cerr << "usage: audit_lab --lab NN --object LAB.o --rubric RUBRIC.json [--nm NM] [--objdump OBJDUMP] "
                     "--verdict VERDICT.json\n";
        return 2;
    }
    std::vector<std::string> extra;
    {
        std::ifstream in(rubric);
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded()) {
            std::cerr << "audit_lab: cannot read " << rubric << "\n";
            return 2;
        }
        for (const auto& p : j.value("audit_allow", nlohmann::json::array())) extra.push_back(p.get<std::string>());
    }
    const auto symbols = output_of({nm, "-P", "-g", object});
    const auto code = output_of({objdump, "-dr", "--no-show-raw-insn", object});
    if (!symbols || !code) {
        std::cerr << "audit_lab: could not read " << object << " with " << nm << " and " << objdump << "\n";
        return 2;
    }
    // What the grader's own objects define, which the lab may not define again.
    std::set<std::string> grader_definitions;
    for (const auto& g : grader_objects) {
        const auto defs = output_of({nm, "-P", "-g", "--defined-only", g});
        if (!defs) {
            std::cerr << "audit_lab: could not read " << g << " with " << nm << "\n";
            return 2;
        }
        for (const auto& s : grading::parse_nm_posix(*defs))
            if (!s.undefined() && !s.weak()) grader_definitions.insert(s.name);
    }
    const auto finding = grading::audit_symbols(lab, grading::parse_nm_posix(*symbols), extra,
                                                grading::parse_objdump(*code), grader_definitions);
    grading::Verdict verdict{"audit"};
    if (!finding.message.empty()) {
        std::string all;
        for (const auto& line : finding.all) all += (all.empty() ? "" : "; ") + line;
        verdict.refuse("forbidden_symbol", "the lab's code " + all);
        for (const auto& line : finding.all) std::cerr << "REFUSED: the lab's code " << line << "\n";
    } else {
        std::size_t imports = 0;
        for (const auto& s : grading::parse_nm_posix(*symbols)) imports += s.undefined();
        verdict.checked = "the audit: the compiled code defines names only in namespace lab" + lab + ", and each of the " +
                          std::to_string(imports) + " functions and objects it uses is allowed";
    }
    return verdict.write(verdict_path);
}
