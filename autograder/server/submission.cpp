#include "submission.hpp"

#include "results.hpp"
#include "tokens.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace fs = std::filesystem;

namespace service {

std::vector<LabSource> lab_catalog(const std::string& rubric_dir, const std::string& course_labs) {
    std::vector<LabSource> labs;
    for (const auto& lab : grading::load_rubric(rubric_dir).labs) {
        std::vector<std::string> sources;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(fs::path(course_labs) / lab.dir, ec))
            if (e.path().extension() == ".cu") sources.push_back(e.path().filename().string());
        if (sources.size() != 1)
            throw std::runtime_error("expected one .cu file in " + (fs::path(course_labs) / lab.dir).string() + ", found " +
                                     std::to_string(sources.size()));
        labs.push_back({lab.id, lab.dir, lab.title, sources[0]});
    }
    return labs;
}

bool is_utf8(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int more = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) { ++i; continue; }
        if (c >= 0xC2 && c <= 0xDF) more = 1, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF) more = 2, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4) more = 3, cp = c & 0x07;
        else return false;
        if (i + static_cast<std::size_t>(more) >= s.size()) return false;
        for (int k = 1; k <= more; ++k) {
            const auto d = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
        if (cp < least[more] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += static_cast<std::size_t>(more) + 1;
    }
    return true;
}

namespace {
// A name that could only be a plain file name of this folder: no separators, no "..", no NUL or control
// characters, not hidden.
std::string refuse_name(const std::string& name) {
    if (name.empty()) return "a file has an empty name";
    if (name.size() > 128) return "a file name is longer than 128 characters";
    if (name.find('/') != std::string::npos || name.find('\\') != std::string::npos)
        return "file name '" + name + "' holds a path separator: send the file's name only";
    if (name.find("..") != std::string::npos) return "file name '" + name + "' holds '..'";
    for (unsigned char c : name)
        if (c < 0x20 || c == 0x7F) return "a file name holds a NUL or control character";
    if (!is_utf8(name)) return "a file name is not UTF-8";
    return "";
}
}  // namespace

std::variant<Upload, std::string> parse_upload(const std::string& body, const std::vector<LabSource>& catalog) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(body);
    } catch (const nlohmann::json::exception& e) {
        return std::string("the body is not JSON (") + e.what() + "); send {\"files\": [{\"name\": ..., \"content\": ...}]}";
    }
    if (!j.is_object() || !j.contains("files") || !j["files"].is_array() || j["files"].empty())
        return std::string("the body must be {\"files\": [{\"name\": ..., \"content\": ...}, ...]} with at least one file");
    std::vector<std::pair<std::string, std::string>> files;
    for (const auto& f : j["files"]) {
        if (!f.is_object() || !f.contains("name") || !f["name"].is_string() || !f.contains("content") ||
            !f["content"].is_string())
            return std::string("each file must be {\"name\": string, \"content\": string}");
        files.emplace_back(f["name"].get<std::string>(), f["content"].get<std::string>());
    }
    return check_files(files, catalog);
}

std::variant<Upload, std::string> check_files(const std::vector<std::pair<std::string, std::string>>& files,
                                              const std::vector<LabSource>& catalog) {
    if (files.empty()) return std::string("no file was sent: send at least one lab's .cu file");
    Upload up;
    std::set<std::string> names;
    for (const auto& [name, content] : files) {
        if (const std::string why = refuse_name(name); !why.empty()) return why;
        const auto lab = std::find_if(catalog.begin(), catalog.end(), [&](const LabSource& l) { return l.file == name; });
        if (lab == catalog.end()) {
            std::string known;
            for (const auto& l : catalog) known += (known.empty() ? "" : ", ") + l.file;
            return "'" + name + "' is not a lab's source file (the labs' files are " + known + ")";
        }
        if (!names.insert(name).second) return "'" + name + "' is sent twice";
        if (!is_utf8(content)) return "'" + name + "' is not UTF-8 text";
        if (content.find('\0') != std::string::npos) return "'" + name + "' holds a NUL character: it is not source text";
        up.files.push_back({&*lab, name, content});
    }
    std::sort(up.files.begin(), up.files.end(), [](const SubmittedFile& a, const SubmittedFile& b) { return a.lab->id < b.lab->id; });
    // The hash of the whole upload: each file's name and length before its text, so no two uploads
    // run together into the same bytes.
    std::string whole;
    for (const auto& f : up.files) whole += f.name + '\0' + std::to_string(f.content.size()) + '\0' + f.content;
    up.content_hash = sha256_hex(whole);
    return up;
}

}  // namespace service
