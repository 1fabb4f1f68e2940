/// @file verdict.hpp
/// @brief The verdict file a build step (assemble_lab, audit_lab) leaves for the runner, so that a build
/// that stops at a refusal is reported with its class and reason, not as a compiler error.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace grading {

/// @brief @p j as the JSON text of a file the runner writes (a verdict, a report, a gradebook), indented by
/// 2. Such files hold the student's own text (an echoed source line, a refused region), which need not be
/// UTF-8: bytes that are not are replaced, never thrown on.
inline std::string json_text(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// @brief One build step's verdict: {"stage", "ok", "class", "message", "notes", "checked"}.
struct Verdict {
    std::string stage;                ///< "regions" or "audit"
    bool ok = true;                   ///< false when the step refused the submission
    std::string cls;                  ///< the failure class when refused ("refused_region", "forbidden_symbol")
    std::string message;              ///< why
    std::vector<std::string> notes;   ///< reported, not refused
    std::string checked;              ///< what the step checked, when it let the submission through (for the dry run)

    /// @brief Marks the submission refused (the first refusal is kept).
    void refuse(const std::string& failure_class, const std::string& why) {
        if (!ok) return;
        ok = false;
        cls = failure_class;
        message = why;
    }

    /// @brief Writes the verdict to @p path; returns the step's exit status (0 ok, 1 refused, 2 unwritable).
    int write(const std::string& path) const {
        // A bare file name has no folder to make; a folder that cannot be made is reported as unwritable.
        const std::filesystem::path folder = std::filesystem::path(path).parent_path();
        std::error_code made;
        if (!folder.empty()) std::filesystem::create_directories(folder, made);
        std::ofstream out(path, std::ios::trunc);
        out << json_text({{"stage", stage}, {"ok", ok}, {"class", cls}, {"message", message}, {"notes", notes},
                          {"checked", checked}})
            << "\n";
        if (!out) {
            std::cerr << stage << ": cannot write " << path << "\n";
            return 2;
        }
        return ok ? 0 : 1;
    }

    /// @brief Reads a verdict written by write(); nullopt when there is none (the step did not run).
    static std::optional<Verdict> read(const std::string& path) {
        std::ifstream in(path);
        if (!in) return std::nullopt;
        const auto j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return std::nullopt;
        Verdict v;
        v.stage = j.value("stage", "");
        v.ok = j.value("ok", false);
        v.cls = j.value("class", "");
        v.message = j.value("message", "");
        v.notes = j.value("notes", std::vector<std::string>{});
        v.checked = j.value("checked", "");
        return v;
    }
};

}  // namespace grading
