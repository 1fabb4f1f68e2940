// audit_lab — the second step of building a lab: read the compiled lab object's symbols and host code
// and refuse what the course does not allow (see audit.hpp). Part of the build, so a refused call is
// named by `make check` even on a machine without a GPU.
//
//   audit_lab --lab NN --object LAB.o --rubric RUBRIC.json --nm NM --objdump OBJDUMP --verdict VERDICT.json
//             [--grader-objects A.o:B.o:...]... [--ptx-dir DIR]
//
// --ptx-dir: the folder nvcc --keep left the object's intermediate files in: its .ptx files (one a virtual
// architecture) are read for the GPU's global timer (device_timer_readers) and for the instructions the
// lab's rubric refuses ("refused_instructions": device_instruction_users); its preprocessed sources (.ii)
// for inline assembly and preprocessor lines on the lab's own lines however the source spelled them
// (region_code_in_preprocessed: refused as refused_region), what they showed kept in
// preprocessed-findings.txt; and the rest of what it left (some MB a file) is removed.
//
// Exit status: 0 allowed; 1 refused (the verdict and stderr say why); 2 bad usage or a tool failed.
#include "audit.hpp"
#include "verdict.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
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
    std::string lab, object, rubric, nm = "nm", objdump = "objdump", verdict_path, ptx_dir;
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
        else if (a == "--ptx-dir") ptx_dir = v;
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
    // Instructions the lab's device code may not use (rubric "refused_instructions"): each a PTX mnemonic
    // and why the lab refuses it.
    std::vector<std::pair<std::string, std::string>> refused_instructions;
    // Calls the lab may make from one function only (rubric "audit_allow_only_in": {"call", "from"}).
    std::vector<std::pair<std::string, std::string>> only_in;
    {
        std::ifstream in(rubric);
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded()) {
            std::cerr << "audit_lab: cannot read " << rubric << "\n";
            return 2;
        }
        for (const auto& p : j.value("audit_allow", nlohmann::json::array())) extra.push_back(p.get<std::string>());
        for (const auto& r : j.value("refused_instructions", nlohmann::json::array())) {
            if (!r.is_object() || !r.contains("ptx") || !r.contains("why") || !r["ptx"].is_string() ||
                !r["why"].is_string() || r["ptx"].get<std::string>().empty()) {
                std::cerr << "audit_lab: " << rubric << ": each of \"refused_instructions\" needs \"ptx\" and \"why\"\n";
                return 2;
            }
            refused_instructions.emplace_back(r["ptx"].get<std::string>(), r["why"].get<std::string>());
        }
        for (const auto& r : j.value("audit_allow_only_in", nlohmann::json::array())) {
            if (!r.is_object() || !r.contains("call") || !r.contains("from") || !r["call"].is_string() ||
                !r["from"].is_string() || r["from"].get<std::string>().empty()) {
                std::cerr << "audit_lab: " << rubric << ": each of \"audit_allow_only_in\" needs \"call\" and \"from\"\n";
                return 2;
            }
            only_in.emplace_back(r["call"].get<std::string>(), r["from"].get<std::string>());
        }
    }
    if (!refused_instructions.empty() && ptx_dir.empty()) {
        std::cerr << "audit_lab: " << rubric << " refuses instructions, which only --ptx-dir's PTX shows\n";
        return 2;
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
    // What the object's code and data refer to: a function among them is not nvcc's stand-in.
    const auto symbol_table = output_of({objdump, "-t", object});
    const auto relocations = output_of({objdump, "-r", object});
    if (!symbol_table || !relocations) {
        std::cerr << "audit_lab: could not read " << object << " with " << objdump << "\n";
        return 2;
    }
    const std::set<std::string> referenced = grading::referenced_functions(*symbol_table, *relocations);
    const std::vector<grading::HostFunction> host_code = grading::parse_objdump(*code);
    auto finding = grading::audit_symbols(lab, grading::parse_nm_posix(*symbols), extra, host_code, grader_definitions,
                                          &referenced);
    for (const auto& line : grading::registration_outside_nvcc(host_code, *relocations, *symbol_table)) finding.add(line);
    for (const auto& [call, from] : only_in)
        for (const auto& line : grading::calls_outside(host_code, *relocations, call, from)) finding.add(line);
    const auto section_headers = output_of({objdump, "-h", "-w", object});
    if (!section_headers) {
        std::cerr << "audit_lab: could not read " << object << "'s sections with " << objdump << "\n";
        return 2;
    }
    for (const auto& line : grading::unexpected_sections(*section_headers)) finding.add(line);
    for (const auto& line : grading::code_outside_functions(*symbol_table, *code)) finding.add(line);
    for (const auto& line : grading::unexpected_constructors(*symbol_table, *relocations)) finding.add(line);
    for (const auto& label : grading::labels_in_code(*symbol_table, *code))
        finding.add("defines the label " + label + " in its code with assembly (the audit names code by the "
                    "functions the compiler made)");
    namespace fs = std::filesystem;
    std::vector<fs::path> ptx, other;
    std::vector<std::string> ptx_texts;
    std::vector<std::string> region_lines;  // what the preprocessed source shows a region held (refused_region)
    if (!ptx_dir.empty()) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(ptx_dir, ec))
            if (e.is_regular_file()) (e.path().extension() == ".ptx" ? ptx : other).push_back(e.path());
        if (ptx.empty()) {
            std::cerr << "audit_lab: no .ptx file in " << ptx_dir << " (nvcc --keep writes them there): build "
                      << object << " again\n";
            return 2;
        }
        std::sort(ptx.begin(), ptx.end());
        for (const auto& p : ptx) {
            std::ifstream in(p, std::ios::binary);
            ptx_texts.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
    }
    if (!ptx_dir.empty()) {
        std::error_code ec;
        // What the files show, each finding once, in the order met.
        const auto add_once = [](auto& list, const auto& item) {
            if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
        };
        std::vector<std::string> readers, clock_readers, counter_readers;
        for (const auto& text : ptx_texts) {
            const grading::SpecialRegisterReaders found = grading::special_register_readers(text);
            for (const auto& r : found.timer) add_once(readers, r);
            for (const auto& r : found.clock) add_once(clock_readers, r);
            for (const auto& r : found.counters) add_once(counter_readers, r);
        }
        for (const auto& r : readers)
            finding.add("reads the GPU's global timer (%globaltimer) in device code (" + r + "): the grader times the lab");
        for (const auto& r : clock_readers)
            finding.add("reads an SM's clock (clock(), clock64(): %clock, %clock64) in device code (" + r +
                        "): the grader times the lab, and a kernel that times itself can tell a checked run from a "
                        "graded one");
        for (const auto& r : counter_readers)
            finding.add("reads the performance-monitor counters or the driver's environment registers (%pm, "
                        "%envreg) in device code (" + r + "): what they hold can differ while a tool or the "
                        "grader observes the run, and a kernel that reads them can tell a checked run from a graded one");
        std::vector<std::string> mnemonics;
        for (const auto& r : refused_instructions) mnemonics.push_back(r.first);
        std::vector<std::pair<std::string, std::string>> uses;
        for (const auto& text : ptx_texts)
            for (const auto& u : grading::device_instruction_users(text, mnemonics)) add_once(uses, u);
        for (const auto& [mnemonic, function] : uses) {
            std::string why;
            for (const auto& r : refused_instructions)
                if (r.first == mnemonic) why = r.second;
            finding.add("uses the instruction " + mnemonic + " in device code (" + function + "): " + why);
        }
        // The preprocessed sources (.ii), for what a region may not hold however it was spelled. They are
        // large: what they showed is kept in a small file beside the PTX, read instead when the audit runs
        // again over the same object.
        const fs::path kept = fs::path(ptx_dir) / "preprocessed-findings.txt";
        bool read = false;
        for (const auto& p : other) {
            if (p.extension() != ".ii") continue;
            std::ifstream in(p, std::ios::binary);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            for (const auto& f : grading::region_code_in_preprocessed(text)) add_once(region_lines, f);
            // The source it was made of, named by its first line marker (# 0 "GRADED.cu"): its braces against
            // the preprocessed lines'.
            const std::string source_path = grading::preprocessed_source_path(text);
            std::ifstream source_in(source_path, std::ios::binary);
            if (source_path.empty() || !source_in) {
                std::cerr << "audit_lab: cannot read the source " << (source_path.empty() ? "(no line marker)" : source_path)
                          << " that " << p.string() << " was made of\n";
                return 2;
            }
            const std::string source((std::istreambuf_iterator<char>(source_in)), std::istreambuf_iterator<char>());
            for (const auto& f : grading::unbalanced_macro_braces(text, source, source_path)) add_once(region_lines, f);
            read = true;
        }
        if (read) {
            std::ofstream out(kept, std::ios::trunc);
            for (const auto& f : region_lines) out << f << "\n";
            if (!out) {
                std::cerr << "audit_lab: cannot write " << kept.string() << "\n";
                return 2;
            }
        } else if (fs::exists(kept)) {
            std::ifstream in(kept);
            for (std::string line; std::getline(in, line);)
                if (!line.empty()) region_lines.push_back(line);
        } else {
            std::cerr << "audit_lab: no preprocessed source (.ii) in " << ptx_dir << " (nvcc --keep writes them there): build "
                      << object << " again\n";
            return 2;
        }
        for (const auto& p : other)
            if (p != kept) fs::remove(p, ec);  // the findings stay for the next audit of this object
    }
    grading::Verdict verdict{"audit"};
    if (!region_lines.empty()) {
        // Refused as the region rules refuse it: the preprocessor made it out of what a region held.
        std::string all;
        for (const auto& line : region_lines) all += (all.empty() ? "" : "; ") + line;
        verdict.refuse("refused_region", "after preprocessing, the lab's code holds what a student region may not: " + all +
                                             " (a macro of the headers can make it; write the code itself, with the CUDA "
                                             "intrinsics instead of inline assembly)");
        for (const auto& line : region_lines) std::cerr << "REFUSED: after preprocessing, the lab's code holds " << line << "\n";
    } else if (!finding.message.empty()) {
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
