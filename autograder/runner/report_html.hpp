/// @file report_html.hpp
/// @brief The grade as a page to look at: build/grading/report.html beside results.json. One HTML file,
/// readable without JavaScript or anything fetched: the run's facts, each lab's table, each failure with
/// its class, message, hint and the tool's lines, a bar chart per speed measurement (the student's kernel,
/// the naive baseline and the library peer in GB/s or TFLOP/s, each speed check's threshold marked where
/// the student's bar must reach), and Lab 06's measured curve over the model's, as inline SVG.
#pragma once

#include "reports.hpp"

#include <optional>
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

/// @brief A speed measurement's figures, as its check's note gives them ("n = 2^28: yours 2871 GB/s, naive
/// 520 GB/s, CUB 3039 GB/s (medians, ...)").
struct SpeedFigures {
    std::string where;       ///< the size measured ("n = 2^28")
    std::string unit;        ///< "GB/s" or "TFLOP/s"
    double yours = 0;        ///< the student's kernel
    double naive = 0;        ///< the naive baseline
    std::string peer;        ///< the library peer's name ("CUB", "cublasSgemm FP32", ...)
    double peer_value = 0;   ///< the library peer
};

/// @brief The figures of a speed check (one whose figure is a ratio, "x ..."), read from its notes; none for
/// other checks (Lab 06's slowdowns, Nsight Compute's figures) or a note in another form.
std::optional<SpeedFigures> speed_figures(const CheckResult& c);

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
