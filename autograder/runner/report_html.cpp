// The grade as an HTML page (see report_html.hpp).
#include "report_html.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace grading {

std::vector<StridePoint> read_stride_curve(const std::string& csv_path) {
    std::ifstream in(csv_path);
    std::string line;
    if (!std::getline(in, line) || line != "stride,word_bytes,ms,slowdown,model_ways") return {};
    std::vector<StridePoint> points;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        StridePoint p;
        double ms = 0;
        char c1 = 0, c2 = 0, c3 = 0, c4 = 0;
        if (!(fields >> p.stride >> c1 >> p.word_bytes >> c2 >> ms >> c3 >> p.slowdown >> c4 >> p.model_ways) ||
            c1 != ',' || c2 != ',' || c3 != ',' || c4 != ',' || !std::isfinite(p.slowdown) || p.stride < 1)
            return {};
        points.push_back(p);
    }
    return points;
}

namespace {

const char* kStyle = R"(body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;line-height:1.4}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1em;margin:.2em 0}
table{border-collapse:collapse;width:100%;font-size:.92em}th,td{text-align:left;padding:.25em .5em;border-bottom:1px solid #eee}
td.num{text-align:right;font-variant-numeric:tabular-nums}tr.pass td.result{color:#1a7f37}tr.fail td.result{color:#c62828;font-weight:600}
tr.skipped td.result{color:#777}.status{font-weight:600}.status.pass{color:#1a7f37}.status.fail{color:#c62828}
.failure{border-left:4px solid #c62828;background:#fdf3f3;padding:.5em 1em;margin:1em 0}.failure .class{font-weight:600;color:#c62828}
.hint{background:#fff8e1;padding:.3em .6em}pre{white-space:pre-wrap;font-size:.85em;background:#f6f8fa;padding:.5em;margin:.3em 0}
figure{margin:1em 0}figcaption{font-size:.9em;color:#444}.run{color:#444}svg text{font-family:system-ui,sans-serif}
)";

// What a speed check's ratio is a ratio to: the text of its unit after the "x" ("x CUB" -> "CUB"), or the
// naive baseline for a bare "x".
std::string compared_with(const CheckResult& c) {
    std::string u = c.unit;
    if (!u.empty() && u[0] == 'x') u = u.substr(1);
    while (!u.empty() && u[0] == ' ') u = u.substr(1);
    return u.empty() ? "naive baseline" : u;
}

}  // namespace

std::optional<SpeedFigures> speed_figures(const CheckResult& c) {
    // The speed checks' figure line: "<where>: yours V U[ (...)], naive V U, <peer> V U[ ...]" with U the
    // same GB/s or TFLOP/s throughout (reduction_bench.hpp, and Labs 03-05's checks, write it).
    static const std::regex line(
        R"(^(.+?): yours ([0-9]+(?:\.[0-9]+)?) (GB/s|TFLOP/s)(?: \([^)]*\))?, naive ([0-9]+(?:\.[0-9]+)?) \3, )"
        R"((.+?) ([0-9]+(?:\.[0-9]+)?) \3\b)");
    if (!c.value || c.unit.empty() || c.unit[0] != 'x') return std::nullopt;
    for (const auto& note : c.notes) {
        std::smatch m;
        if (!std::regex_search(note, m, line)) continue;
        SpeedFigures f;
        f.where = m[1];
        f.unit = m[3];
        f.yours = std::stod(m[2]);
        f.naive = std::stod(m[4]);
        f.peer = m[5];
        f.peer_value = std::stod(m[6]);
        if (f.yours >= 0 && f.naive > 0 && f.peer_value > 0) return f;
    }
    return std::nullopt;
}

namespace {

// One bar chart for the speed checks that share a measurement (the same figure line): the naive baseline,
// the library peer and the student's kernel in GB/s or TFLOP/s on one scale, and each check's threshold
// as a dashed line where the student's bar must reach (its ratio times the contender it is a ratio to).
std::string speed_chart(const SpeedFigures& f, const std::vector<const CheckResult*>& checks) {
    struct Mark {
        double at;
        std::string label;
    };
    std::vector<Mark> marks;
    bool ok = true;
    for (const auto* c : checks) {
        const bool vs_naive = compared_with(*c) == "naive baseline";
        marks.push_back({c->threshold * (vs_naive ? f.naive : f.peer_value),
                         std::string(c->higher_is_better ? "&#8805; " : "&#8804; ") + num(c->threshold, 2) + "x " +
                             xml_escape(vs_naive ? "naive" : f.peer)});
        ok = ok && c->passed();
    }
    std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.at < b.at; });
    double top = std::max({f.yours, f.naive, f.peer_value});
    for (const auto& m : marks) top = std::max(top, m.at);
    top *= 1.12;
    const int left = 170, width = 360, bar = 22, gap = 10, bars_h = 3 * bar + 4 * gap;
    const int height = bars_h + 18 * static_cast<int>(marks.size()) + 4;
    const auto x = [&](double v) { return left + v / top * width; };
    std::ostringstream s;
    s << "<figure class=\"speed\"><svg class=\"speed\" role=\"img\" width=\"" << left + width + 110 << "\" height=\""
      << height << "\" viewBox=\"0 0 " << left + width + 110 << " " << height << "\" aria-label=\"speed at "
      << xml_escape(f.where) << "\">";
    const auto row = [&](int i, const std::string& label, double v, const char* fill, const char* cls) {
        const int y = gap + i * (bar + gap);
        s << "<text x=\"" << left - 8 << "\" y=\"" << y + bar * 0.7 << "\" text-anchor=\"end\" font-size=\"13\">"
          << xml_escape(label) << "</text>";
        s << "<rect class=\"bar " << cls << "\" x=\"" << left << "\" y=\"" << y << "\" width=\""
          << std::max(1.0, x(v) - left) << "\" height=\"" << bar << "\" fill=\"" << fill << "\"><title>"
          << xml_escape(label) << ": " << num(v, f.unit == "GB/s" ? 0 : 1) << " " << f.unit << "</title></rect>";
        s << "<text x=\"" << x(v) + 5 << "\" y=\"" << y + bar * 0.7 << "\" font-size=\"13\">"
          << num(v, f.unit == "GB/s" ? 0 : 1) << " " << f.unit << "</text>";
    };
    row(0, "naive baseline", f.naive, "#bdbdbd", "naive");
    row(1, f.peer, f.peer_value, "#757575", "peer");
    row(2, "your kernel", f.yours, ok ? "#2e7d32" : "#c62828", "yours");
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const double tx = x(marks[i].at);
        const int label_y = bars_h + 14 + 18 * static_cast<int>(i);
        s << "<line class=\"threshold\" x1=\"" << num(tx, 1) << "\" y1=\"4\" x2=\"" << num(tx, 1) << "\" y2=\""
          << label_y - 11 << "\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>";
        s << "<text x=\"" << num(tx, 1) << "\" y=\"" << label_y << "\" text-anchor=\"middle\" font-size=\"12\">needs "
          << marks[i].label << "</text>";
    }
    s << "</svg><figcaption>" << xml_escape(f.where) << ": your kernel, the naive baseline and "
      << xml_escape(f.peer) << " in " << f.unit
      << " (medians, all timed in this run); each dashed line is where a speed check needs your bar to reach"
      << "</figcaption></figure>\n";
    return s.str();
}

// Lab 06's curve for one word size: the measured slowdown at each stride (points and line) over the
// model's conflict degree (steps), slowdown on a log2 scale.
std::string curve_chart(const std::vector<StridePoint>& points, int word_bytes) {
    std::vector<StridePoint> mine;
    for (const auto& p : points)
        if (p.word_bytes == word_bytes && p.stride <= 64) mine.push_back(p);
    if (mine.empty()) return "";
    std::sort(mine.begin(), mine.end(), [](const StridePoint& a, const StridePoint& b) { return a.stride < b.stride; });
    const int max_stride = mine.back().stride;
    const int left = 50, top = 15, width = 520, height = 260;
    double y_max = 2.0;
    for (const auto& p : mine) y_max = std::max({y_max, p.slowdown, double(p.model_ways)});
    const double log_top = std::ceil(std::log2(y_max * 1.1)), log_bottom = -1.0;  // 0.5x to the top power of two
    const auto x = [&](double stride) { return left + (stride - 1) / std::max(1, max_stride - 1) * width; };
    const auto y = [&](double v) {
        const double l = std::clamp(std::log2(std::max(v, 1e-3)), log_bottom, log_top);
        return top + (log_top - l) / (log_top - log_bottom) * height;
    };
    std::ostringstream s;
    s << "<figure class=\"curve\"><svg class=\"curve\" role=\"img\" width=\"" << left + width + 130 << "\" height=\""
      << top + height + 40 << "\" aria-label=\"" << word_bytes << "-byte curve\">";
    for (double g = log_bottom; g <= log_top; g += 1) {
        s << "<line x1=\"" << left << "\" x2=\"" << left + width << "\" y1=\"" << y(std::exp2(g)) << "\" y2=\""
          << y(std::exp2(g)) << "\" stroke=\"#eee\"/><text x=\"" << left - 6 << "\" y=\"" << y(std::exp2(g)) + 4
          << "\" text-anchor=\"end\" font-size=\"11\">" << num(std::exp2(g), g < 0 ? 1 : 0) << "x</text>";
    }
    for (int st = 1; st <= max_stride; st = st < 4 ? st + 1 : st + 4)
        s << "<text x=\"" << x(st) << "\" y=\"" << top + height + 16 << "\" text-anchor=\"middle\" font-size=\"11\">" << st
          << "</text>";
    s << "<text x=\"" << left + width / 2 << "\" y=\"" << top + height + 34
      << "\" text-anchor=\"middle\" font-size=\"12\">stride (words)</text>";
    std::string model, measured;
    for (const auto& p : mine) {
        model += (model.empty() ? "M" : " L") + num(x(std::max(1.0, p.stride - 0.5)), 1) + " " + num(y(p.model_ways), 1) +
                 " L" + num(x(std::min<double>(p.stride + 0.5, max_stride)), 1) + " " + num(y(p.model_ways), 1);
        measured += (measured.empty() ? "M" : " L") + num(x(p.stride), 1) + " " + num(y(p.slowdown), 1);
    }
    s << "<path class=\"model\" d=\"" << model << "\" fill=\"none\" stroke=\"#1565c0\" stroke-width=\"2\"/>";
    s << "<path class=\"measured\" d=\"" << measured << "\" fill=\"none\" stroke=\"#e65100\" stroke-width=\"1.5\"/>";
    for (const auto& p : mine)
        s << "<circle class=\"point\" cx=\"" << num(x(p.stride), 1) << "\" cy=\"" << num(y(p.slowdown), 1)
          << "\" r=\"3\" fill=\"#e65100\"><title>stride " << p.stride << ": " << num(p.slowdown, 2) << "x measured, "
          << p.model_ways << "-way model</title></circle>";
    const int lx = left + width + 12;
    s << "<line x1=\"" << lx << "\" x2=\"" << lx + 20 << "\" y1=\"30\" y2=\"30\" stroke=\"#1565c0\" stroke-width=\"2\"/>"
      << "<text x=\"" << lx + 25 << "\" y=\"34\" font-size=\"12\">model (ways)</text>"
      << "<line x1=\"" << lx << "\" x2=\"" << lx + 20 << "\" y1=\"50\" y2=\"50\" stroke=\"#e65100\" stroke-width=\"1.5\"/>"
      << "<text x=\"" << lx + 25 << "\" y=\"54\" font-size=\"12\">measured</text>";
    s << "</svg><figcaption>" << word_bytes << "-byte words: the slowdown T(s)/T(1) your microbenchmark measured at "
      << "each stride s, over the model's conflict degree (log scale)</figcaption></figure>\n";
    return s.str();
}

std::string result_cell(const CheckResult& c) {
    if (c.skipped) return "not run";
    return c.passed() ? "pass" : "FAIL: " + title(c.cls);
}

}  // namespace

std::string report_html(const std::vector<LabResult>& labs, const RunInfo& info,
                        const std::vector<StridePoint>& lab06_curve) {
    double points = 0, max_points = 0;
    bool all_passed = true;
    for (const auto& lab : labs) {
        points += lab.points();
        max_points += lab.max_points();
        all_passed = all_passed && lab.passed();
    }
    // Without a GPU (info.gpu empty) the labs were built and audited only: nothing was graded, and no
    // input was drawn. The page says what built and what was refused, never a score.
    const bool built_only = info.gpu.empty();
    std::ostringstream s;
    s << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Grading report: "
      << (built_only ? std::string("not graded") : points_str(points) + "/" + points_str(max_points)) << "</title><style>"
      << kStyle << "</style></head><body>\n";
    if (built_only)
        s << "<h1>Grading report: <span class=\"status fail\">NOT GRADED</span></h1>\n<p class=\"run\">GPU: none. Each lab "
             "was built and audited only; its checks run its kernels, and need a machine with an NVIDIA GPU.<br>building "
          << num(info.build_seconds, 1) << " s</p>\n";
    else
        s << "<h1>Grading report: <span class=\"status " << (all_passed ? "pass" : "fail") << "\">" << points_str(points) << "/"
          << points_str(max_points) << (all_passed ? " PASS" : " FAIL") << "</span></h1>\n"
          << "<p class=\"run\">GPU: " << xml_escape(info.gpu) << "<br>seed: " << info.seed
          << (info.secret ? " (with the instructor's secret: the seed alone does not rebuild the inputs)"
                          : " (<code>grade --seed " + std::to_string(info.seed) + "</code> reproduces the inputs)")
          << "<br>building " << num(info.build_seconds, 1) << " s, checks " << num(info.grade_seconds, 1) << " s</p>\n";
    // Built only: a check that did not run is shown as not run (no GPU), not as a failure with a hint.
    std::vector<LabResult> shown = labs;
    if (built_only)
        for (auto& lab : shown)
            for (auto& c : lab.checks)
                if (c.cls == Failure::NotRun) c.skipped = true, c.hint.clear();
    for (const auto& lab : shown) {
        s << "<section id=\"lab" << xml_escape(lab.id) << "\"><h2>Lab " << xml_escape(lab.id) << " "
          << xml_escape(lab.title) << " (" << xml_escape(lab.tree) << "): <span class=\"status "
          << (lab.passed() ? "pass" : "fail") << "\">";
        if (built_only) {
            const Failure f = lab.primary_failure();
            s << (f == Failure::NotRun ? std::string("builds; not graded") : xml_escape(title(f)));
        } else {
            s << points_str(lab.points()) << "/" << points_str(lab.max_points())
              << (lab.passed() ? " PASS" : " FAIL (" + xml_escape(title(lab.primary_failure())) + ")");
        }
        s << "</span></h2>\n";
        for (const auto& n : lab.notes) s << "<p class=\"note\">" << xml_escape(n) << "</p>\n";
        s << "<table class=\"checks\"><tr><th>check</th><th>result</th><th>figure</th><th>threshold</th><th>points</th></tr>\n";
        for (const auto& c : lab.checks) {
            s << "<tr class=\"" << (c.skipped ? "skipped" : c.passed() ? "pass" : "fail") << "\"><td>" << xml_escape(c.name)
              << "</td><td class=\"result\">" << xml_escape(result_cell(c)) << "</td><td class=\"num\">"
              << (c.value ? num(*c.value, 2) + xml_escape(c.unit) : "") << "</td><td class=\"num\">"
              << (c.value ? std::string(c.higher_is_better ? "&#8805; " : "&#8804; ") + num(c.threshold, 2) : "")
              << "</td><td class=\"num\">"
              << (built_only ? std::string("&#8211;") : points_str(c.points) + "/" + points_str(c.max_points)) << "</td></tr>\n";
        }
        s << "</table>\n";
        // One chart per measurement: checks that share a figure line (Lab 01's two ratios) share a chart.
        std::vector<std::pair<SpeedFigures, std::vector<const CheckResult*>>> charts;
        for (const auto& c : lab.checks) {
            const auto f = speed_figures(c);
            if (!f) continue;
            const auto same = std::find_if(charts.begin(), charts.end(), [&](const auto& chart) {
                return chart.first.where == f->where && chart.first.yours == f->yours;
            });
            if (same == charts.end()) charts.push_back({*f, {&c}});
            else same->second.push_back(&c);
        }
        for (const auto& [f, checks] : charts) s << speed_chart(f, checks);
        for (const auto& c : lab.checks) {
            if ((c.passed() && !c.skipped) || (built_only && c.skipped)) continue;
            s << "<div class=\"" << (c.skipped ? "skipped" : "failure") << "\"><h3>" << xml_escape(c.name) << "</h3>";
            if (!c.skipped) s << "<p class=\"class\">" << xml_escape(title(c.cls)) << "</p>";
            s << "<p class=\"message\">" << xml_escape(c.message) << "</p>";
            if (!c.hint.empty()) s << "<p class=\"hint\">hint: " << xml_escape(c.hint) << "</p>";
            if (!c.notes.empty()) {
                s << "<pre class=\"log\">";
                for (const auto& n : c.notes) s << xml_escape(n) << "\n";
                s << "</pre>";
            }
            s << "</div>\n";
        }
        if (lab.id == "06" && !lab06_curve.empty()) s << curve_chart(lab06_curve, 4) << curve_chart(lab06_curve, 8);
        if (!lab.log_path.empty())
            s << "<p class=\"note\">full log: <code>" << xml_escape(lab.log_path) << "</code></p>\n";
        s << "</section>\n";
    }
    s << "</body></html>\n";
    return s.str();
}

}  // namespace grading
