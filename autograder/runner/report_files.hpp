/// @file report_files.hpp
/// @brief The files a grading leaves: results.json, the JUnit XML and report.html.
#pragma once

#include "reports.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace grading {

/// results.json, the JUnit XML, and report.html beside results.json. Lab 06's curve comes from the file its
/// checks wrote in @p artifacts during this grading (written at @p since or later), never from an earlier one.
void write_reports(const std::vector<LabResult>& results, const RunInfo& info, const std::string& results_path,
                   const std::string& junit_path, const std::filesystem::path& artifacts,
                   std::filesystem::file_time_type since);

}  // namespace grading
