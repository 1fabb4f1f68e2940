// assemble_lab — the first step of building a lab: the graded file is the course's skeleton with the
// submission's student regions (see regions.hpp). Run by the build, never on the student's files in place.
//
//   assemble_lab --skeleton COURSE.cu --submission SUBMITTED.cu [--fill SOLUTION.cu]
//                --out GRADED.cu --verdict VERDICT.json [--header COURSE.cuh SUBMITTED.cuh]...
//                [--submission-name-file NAME.txt] [--keep-dir DIR]
//
// A submission graded through a grading slot is a copy of the student's file; the runner writes the path
// of the student's own file into NAME.txt beside it, and messages and `#line` directives then name that
// file (a missing or empty NAME.txt: the copy's own path).
//
// --keep-dir: the folder where nvcc leaves its intermediate files of GRADED.cu (the PTX the audit reads):
// emptied when GRADED.cu is written, and only then, so that the files always belong to the object built
// from GRADED.cu (an unchanged lab keeps both its object and its PTX).
//
// Writes GRADED.cu (only when its contents change, so an unchanged lab is not recompiled) and
// VERDICT.json: {"stage": "regions", "ok": true|false, "class", "message", "notes": [...]}.
// Exit status: 0 assembled; 1 refused (a region breaks the rules; the verdict says why); 2 bad usage.
#include "process.hpp"
#include "regions.hpp"
#include "verdict.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    std::string skeleton, submission, fill, out, verdict_path, name_file, keep_dir;
    std::vector<std::pair<std::string, std::string>> headers;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string& v) {
            if (i + 1 >= argc) return false;
            v = argv[++i];
            return true;
        };
        bool ok = true;
        if (a == "--skeleton") ok = value(skeleton);
        else if (a == "--submission") ok = value(submission);
        else if (a == "--fill") ok = value(fill);
        else if (a == "--out") ok = value(out);
        else if (a == "--verdict") ok = value(verdict_path);
        else if (a == "--submission-name-file") ok = value(name_file);
        else if (a == "--keep-dir") ok = value(keep_dir);
        else if (a == "--header" && i + 2 < argc) {
            headers.emplace_back(argv[i + 1], argv[i + 2]);
            i += 2;
        } else ok = false;
        if (!ok) {
            std::cerr << "assemble_lab: bad argument '" << a << "'\n";
            return 2;
        }
    }
    if (skeleton.empty() || submission.empty() || out.empty() || verdict_path.empty()) {
        std::cerr << "usage: assemble_lab --skeleton F --submission F [--fill F] --out F --verdict F "
                     "[--header COURSE SUBMITTED]... [--submission-name-file F] [--keep-dir DIR]\n";
        return 2;
    }
    // The name the student knows the submission by.
    std::string shown = submission;
    if (!name_file.empty()) {
        std::istringstream first(grading::read_text_file(name_file).value_or(""));
        std::string line;
        // A name with a double quote is not carried into the #line directives: cicc writes it into the PTX's
        // .file line as it is, which ptxas cannot parse, so the lab would not compile. The copy's own path
        // names it then.
        if (std::getline(first, line) && !line.empty() && line.find('"') == std::string::npos) shown = line;
    }
    grading::Verdict verdict{"regions"};
    const auto skel_text = grading::read_text_file(skeleton);
    if (!skel_text) {
        std::cerr << "assemble_lab: cannot read the course's skeleton " << skeleton << "\n";
        return 2;
    }
    const auto sub_text = grading::read_text_file(submission);
    if (!sub_text) {
        verdict.refuse("refused_region", "the lab's source file " + shown + " is missing or unreadable");
        return verdict.write(verdict_path);
    }
    std::optional<grading::SourceText> filler;
    if (!fill.empty()) {
        const auto t = grading::read_text_file(fill);
        if (!t) {
            std::cerr << "assemble_lab: cannot read " << fill << "\n";
            return 2;
        }
        filler = grading::SourceText{*t, fill};
    }
    grading::Assembly a;
    try {
        a = grading::assemble({*skel_text, skeleton}, {*sub_text, shown}, filler ? &*filler : nullptr);
    } catch (const std::exception& e) {
        std::cerr << "assemble_lab: " << e.what() << "\n";
        return 2;
    }
    verdict.notes = a.notes;
    for (const auto& [course_h, submitted_h] : headers) {
        const auto c = grading::read_text_file(course_h), s = grading::read_text_file(submitted_h);
        if (c && s && *c != *s)
            verdict.notes.push_back("your " + (fs::path(shown).parent_path() / fs::path(submitted_h).filename()).string() +
                                    " differs from the course's; the course's interface is used");
    }
    if (!a.refusal.empty()) {
        verdict.refuse("refused_region", a.refusal);
        std::cerr << "REFUSED: " << a.refusal << "\n";
        return verdict.write(verdict_path);
    }
    for (const auto& n : verdict.notes) std::cerr << "note: " << n << "\n";
    const std::size_t regions = grading::skeleton_of(*sub_text).regions.size();
    verdict.checked = "the region rules: your " + std::to_string(regions) + " student region" + (regions == 1 ? "" : "s") +
                      " hold only code for their place (no preprocessor line, nothing that reaches outside a region)";
    std::error_code made;
    if (const fs::path folder = fs::path(out).parent_path(); !folder.empty()) fs::create_directories(folder, made);
    if (grading::read_text_file(out) != a.source) {
        if (!keep_dir.empty()) {
            std::error_code ec;
            fs::remove_all(keep_dir, ec);
            fs::create_directories(keep_dir, ec);
            if (ec) {
                std::cerr << "assemble_lab: cannot empty " << keep_dir << ": " << ec.message() << "\n";
                return 2;
            }
        }
        std::ofstream o(out, std::ios::binary | std::ios::trunc);
        o << a.source;
        if (!o) {
            std::cerr << "assemble_lab: cannot write " << out << "\n";
            return 2;
        }
    }
    return verdict.write(verdict_path);
}
