/// @file stride_report.hpp
/// @brief Lab 06's measured stride curve as files: a CSV table and a hand-written SVG line plot of
/// slowdown against stride, with the model drawn beside the measurement. Host C++ only.
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

/// @brief Lab 06's curve files (written by the grading program into its working folder, build/grading).
namespace lab06::report {

/// @brief One measured stride.
struct Point {
    int stride = 1;       ///< words between neighbouring lanes
    int word_bytes = 4;   ///< 4 (float) or 8 (double)
    double ms = 0.0;      ///< median time of one launch
    double slowdown = 0;  ///< ms / (ms at stride 1, same word size)
    int model_ways = 1;   ///< the model's conflict degree for this stride
};

/// @brief The CSV's first line.
inline constexpr const char* kCsvHeader = "stride,word_bytes,ms,slowdown,model_ways";

/// @brief Writes @p points as CSV; false when the file cannot be written.
inline bool write_csv(const std::vector<Point>& points, const std::string& path) {
    std::ofstream out(path, std::ios::trunc);
    out << kCsvHeader << '\n';
    out.precision(6);
    for (const Point& p : points)
        out << p.stride << ',' << p.word_bytes << ',' << std::fixed << p.ms << ',' << p.slowdown << ','
            << p.model_ways << '\n';
    return static_cast<bool>(out);
}

/// @brief Reads a file written by write_csv(); on a malformed file returns what was read and sets @p error.
inline std::vector<Point> read_csv(const std::string& path, std::string& error) {
    std::vector<Point> points;
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line) || line != kCsvHeader) {
        error = path + ": missing or wrong header";
        return points;
    }
    for (int number = 2; std::getline(in, line); ++number) {
        std::istringstream fields(line);
        Point p;
        char c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        if (!(fields >> p.stride >> c1 >> p.word_bytes >> c2 >> p.ms >> c3 >> p.slowdown >> c4 >> p.model_ways) ||
            c1 != ',' || c2 != ',' || c3 != ',' || c4 != ',') {
            error = path + ":" + std::to_string(number) + ": cannot parse \"" + line + "\"";
            return points;
        }
        points.push_back(p);
    }
    return points;
}

/// @brief Writes a line plot of slowdown (log scale, 0.5x to 64x) against stride: per word size, the
/// measured line and the model's conflict ways as hollow squares; false when the file cannot be written.
inline bool write_svg(const std::vector<Point>& points, const std::string& path) {
    constexpr double kWidth = 760, kHeight = 440;
    constexpr double kLeft = 70, kRight = kWidth - 180, kTop = 50, kBottom = kHeight - 60;
    constexpr double kLogMin = -1, kLogMax = 6;  // 0.5x .. 64x
    int max_stride = 2;
    for (const Point& p : points) max_stride = std::max(max_stride, p.stride);
    auto x = [&](double stride) { return kLeft + (stride - 1) / (max_stride - 1) * (kRight - kLeft); };
    auto y = [&](double slowdown) {
        const double l = std::clamp(std::log2(std::max(slowdown, 1e-9)), kLogMin, kLogMax);
        return kBottom - (l - kLogMin) / (kLogMax - kLogMin) * (kBottom - kTop);
    };
    std::ostringstream svg;
    svg.precision(1);
    svg << std::fixed;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << kHeight
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << "<text x=\"" << kLeft << "\" y=\"24\" font-size=\"15\">Shared-memory loads: slowdown T(s) / T(1) by "
           "stride s (measured, and the model)</text>\n";
    for (int e = 0; e <= 5; ++e) {  // horizontal grid: 1x, 2x, ..., 32x
        const double v = std::ldexp(1.0, e);
        svg << "<line x1=\"" << kLeft << "\" y1=\"" << y(v) << "\" x2=\"" << kRight << "\" y2=\"" << y(v)
            << "\" stroke=\"#ddd\"/>\n"
            << "<text x=\"" << kLeft - 8 << "\" y=\"" << y(v) + 4 << "\" text-anchor=\"end\">" << static_cast<int>(v)
            << "x</text>\n";
    }
    for (int s = 1; s <= max_stride; s += (s == 1 ? 3 : 4)) {  // stride ticks: 1, 4, 8, ...
        svg << "<line x1=\"" << x(s) << "\" y1=\"" << kBottom << "\" x2=\"" << x(s) << "\" y2=\"" << kBottom + 5
            << "\" stroke=\"black\"/>\n"
            << "<text x=\"" << x(s) << "\" y=\"" << kBottom + 19 << "\" text-anchor=\"middle\">" << s << "</text>\n";
    }
    svg << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kRight - kLeft << "\" height=\""
        << kBottom - kTop << "\" fill=\"none\" stroke=\"black\"/>\n"
        << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << kHeight - 20
        << "\" text-anchor=\"middle\">stride s (words between neighbouring lanes)</text>\n"
        << "<text transform=\"translate(20 " << (kTop + kBottom) / 2
        << ") rotate(-90)\" text-anchor=\"middle\">slowdown T(s) / T(1)</text>\n";

    int legend_row = 0;
    for (int word_bytes : {4, 8}) {
        const char* colour = word_bytes == 4 ? "#1f77b4" : "#d62728";
        std::ostringstream line, marks;
        line.precision(1);
        marks.precision(1);
        line << std::fixed;
        marks << std::fixed;
        bool any = false;
        for (const Point& p : points) {
            if (p.word_bytes != word_bytes) continue;
            any = true;
            // The model as a hollow square, the measurement as a dot on a line: where they part, it shows.
            marks << "<rect x=\"" << x(p.stride) - 4.5 << "\" y=\"" << y(p.model_ways) - 4.5
                  << "\" width=\"9\" height=\"9\" fill=\"none\" stroke=\"" << colour << "\" stroke-opacity=\"0.6\"/>\n";
            if (std::isfinite(p.slowdown) && p.slowdown > 0) {
                line << x(p.stride) << ',' << y(p.slowdown) << ' ';
                marks << "<circle cx=\"" << x(p.stride) << "\" cy=\"" << y(p.slowdown) << "\" r=\"2.5\" fill=\"" << colour
                      << "\"><title>stride " << p.stride << ": " << p.slowdown << "x (model " << p.model_ways
                      << ")</title></circle>\n";
            }
        }
        if (!any) continue;
        svg << "<polyline points=\"" << line.str() << "\" fill=\"none\" stroke=\"" << colour
            << "\" stroke-width=\"1.5\"/>\n"
            << marks.str();
        const std::string name = word_bytes == 4 ? "4-byte words (float)" : "8-byte words (double)";
        const double ly = kTop + 10 + 40.0 * legend_row++;
        svg << "<line x1=\"" << kRight + 12 << "\" y1=\"" << ly << "\" x2=\"" << kRight + 36 << "\" y2=\"" << ly
            << "\" stroke=\"" << colour << "\" stroke-width=\"1.5\"/>\n"
            << "<circle cx=\"" << kRight + 24 << "\" cy=\"" << ly << "\" r=\"2.5\" fill=\"" << colour << "\"/>\n"
            << "<text x=\"" << kRight + 42 << "\" y=\"" << ly + 4 << "\">" << name << "</text>\n"
            << "<rect x=\"" << kRight + 19.5 << "\" y=\"" << ly + 13.5 << "\" width=\"9\" height=\"9\" fill=\"none\" stroke=\""
            << colour << "\" stroke-opacity=\"0.6\"/>\n"
            << "<text x=\"" << kRight + 42 << "\" y=\"" << ly + 22 << "\">model (conflict ways)</text>\n";
    }
    svg << "</svg>\n";
    std::ofstream out(path, std::ios::trunc);
    out << svg.str();
    return static_cast<bool>(out);
}

}  // namespace lab06::report
