/// @file submission.hpp
/// @brief What a student may upload, checked before anything is stored: the `.cu` file of one or more
/// labs, under the course's own file names, as UTF-8 text.
///
/// The body is JSON: `{"files": [{"name": "sum_reduction.cu", "content": "..."}, ...]}`. Anything else
/// (a name with '/', "..", or NUL, a file that is not a lab's source, text that is not UTF-8, a name given
/// twice, a body that is not that JSON) is refused with a message, and nothing is kept.
#pragma once

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace service {

/// @brief One lab as the service knows it: its id ("01"), folder ("01-sum-reduction"), title and the
/// file a student fills in ("sum_reduction.cu").
struct LabSource {
    std::string id, dir, title, file;
};

/// @brief The labs of the course: the rubric's labs, each with the one `.cu` of its folder in
/// @p course_labs (the course's starters). Throws std::runtime_error when a lab has no such file.
std::vector<LabSource> lab_catalog(const std::string& rubric_dir, const std::string& course_labs);

/// @brief One accepted file of an upload.
struct SubmittedFile {
    const LabSource* lab = nullptr;
    std::string name, content;
};

/// @brief An accepted upload: its files, sorted by lab, and a hash of the whole (same files, same hash).
struct Upload {
    std::vector<SubmittedFile> files;
    std::string content_hash;
};

/// @brief Parses and checks an upload's body; a refusal is the message for the client.
std::variant<Upload, std::string> parse_upload(const std::string& body, const std::vector<LabSource>& catalog);

/// @brief Checks files given as (name, content), however they came (the API's JSON, the upload page's
/// form): the same rules and messages as parse_upload.
std::variant<Upload, std::string> check_files(const std::vector<std::pair<std::string, std::string>>& files,
                                              const std::vector<LabSource>& catalog);

/// @brief True when @p s is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool is_utf8(const std::string& s);

}  // namespace service
