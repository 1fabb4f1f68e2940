/// @file report_html.hpp
/// @brief The grade as a page to look at: build/grading/report.html beside results.json. One HTML file,
/// readable without JavaScript or anything fetched: the run's facts, each lab's table, each failure with
/// its class, message, hint and the tool's lines, a bar chart per speed check (the student's ratio against
/// the contender it is a ratio to, with the threshold marked), and Lab 06's measured curve over the
/// model's, as inline SVG.
#pragma once

#include "reports.hpp"

#include <string>
#include <vector>

namespace grading {

/// @brief One stride of Lab 06's measured curve (a row of lab06_strides.csv).
struct StridePoint {
    int stride = 1;      ///< words between neighbouring lanes
    int word_bytes = 4;  ///< 4 or 8
    double slowdown = 0; ///< T(stride) / T(1), measured
    int model_ways = 1;  ///< the model's conflict degree
};

/// @brief Reads the curve Lab 06's checks wrote (stride,word_bytes,ms,slowdown,model_ways); empty when the
/// file is absent or malformed (the report then has no curve).
std::vector<StridePoint> read_stride_curve(const std::string& csv_path);

/// @brief The report page of one grading.
/// @param labs the labs graded, as the table shows them
/// @param info the run's facts (GPU, seed, times)
/// @param lab06_curve Lab 06's measured curve of this grading, or empty
std::string report_html(const std::vector<LabResult>& labs, const RunInfo& info,
                        const std::vector<StridePoint>& lab06_curve);

}  // namespace grading
