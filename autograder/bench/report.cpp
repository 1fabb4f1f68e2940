// The benchmark's outputs (see bench.hpp): the table on standard output, the CSV and the SVG bar chart.
#include "bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace bench {

namespace {

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// "3030 GB/s" or "40.4 TFLOP/s".
std::string throughput_text(const Row& r) {
    return format(r.bound == Bound::Memory ? "%.0f" : "%.1f", r.throughput) + " " + unit(r.bound);
}

std::ofstream open_output(const std::string& path) {
    const std::filesystem::path p(path);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path);
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string xml(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

// A round step for about @p ticks ticks up to @p top: 1, 2, 2.5 or 5 times a power of ten.
double nice_step(double top, int ticks) {
    const double raw = top / ticks;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double f : {1.0, 2.0, 2.5, 5.0})
        if (raw <= f * p) return f * p;
    return 10.0 * p;
}

}  // namespace

void print_table(const std::vector<Row>& rows, const Row& roofline) {
    std::cout << "\n";
    if (roofline.ok)
        std::cout << "Copy roofline: " << roofline.name << ", read + write counted: " << throughput_text(roofline)
                  << " (median " << format("%.3f", roofline.median_ms) << " ms)\n\n";
    else
        std::cout << "Copy roofline: not measured (" << roofline.problem << ")\n\n";
    std::cout << std::left << std::setw(4) << "Lab" << std::setw(26) << "Case" << std::setw(11) << "Contender"
              << std::setw(34) << "Implementation" << std::right << std::setw(11) << "Median ms" << std::setw(16)
              << "Throughput" << std::setw(9) << "x peer" << std::setw(13) << "of roofline" << "\n";
    std::cout << std::string(4 + 26 + 11 + 34 + 11 + 16 + 9 + 13, '-') << "\n";
    std::string last_case;
    for (const Row& r : rows) {
        const std::string key = r.lab + r.case_name;
        if (!last_case.empty() && key != last_case) std::cout << "\n";
        last_case = key;
        std::cout << std::left << std::setw(4) << r.lab << std::setw(26) << r.case_name << std::setw(11) << r.role
                  << std::setw(34) << r.name << std::right;
        if (!r.ok) {
            std::cout << std::setw(11) << "-" << std::setw(16) << "WRONG RESULT" << std::setw(9) << "-" << std::setw(13)
                      << "-" << "\n";
            continue;
        }
        std::cout << std::setw(11) << format("%.3f", r.median_ms) << std::setw(16) << throughput_text(r) << std::setw(9)
                  << (r.ratio_to_peer > 0 ? format("%.2f", r.ratio_to_peer) : "-") << std::setw(13)
                  << (r.of_roofline >= 0 ? format("%.2f", r.of_roofline) : "-") << "\n";
    }
    for (const Row& r : rows)
        if (!r.ok) std::cerr << "bench: lab " << r.lab << ", " << r.case_name << ", " << r.name << ": " << r.problem << "\n";
}

const char* csv_header() {
    return "lab,case,contender,implementation,verified,median_ms,min_ms,max_ms,rounds,throughput,unit,ratio_to_peer,"
           "fraction_of_copy_roofline,gpu";
}

void write_csv(const std::string& path, const std::vector<Row>& rows, const Row& roofline, const std::string& gpu) {
    std::ofstream out = open_output(path);
    out << csv_header() << "\n";
    std::vector<Row> all{roofline};
    all.insert(all.end(), rows.begin(), rows.end());
    for (const Row& r : all) {
        out << csv_field(r.lab) << "," << csv_field(r.case_name) << "," << csv_field(r.role) << "," << csv_field(r.name)
            << "," << (r.ok ? "yes" : "no") << ",";
        if (r.ok)
            out << format("%.6f", r.median_ms) << "," << format("%.6f", r.min_ms) << "," << format("%.6f", r.max_ms);
        else
            out << ",,";
        out << "," << r.rounds << "," << (r.ok ? format("%.2f", r.throughput) : "") << "," << unit(r.bound) << ","
            << (r.ratio_to_peer > 0 ? format("%.4f", r.ratio_to_peer) : "") << ","
            << (r.ok && r.of_roofline >= 0 ? format("%.4f", r.of_roofline) : "") << "," << csv_field(gpu) << "\n";
    }
    if (!out) throw std::runtime_error("cannot write " + path);
}

void write_svg(const std::string& path, const std::vector<Row>& rows, const Row& roofline, const std::string& title,
               const std::string& subtitle) {
    // One panel a case, in the order measured; within it the reference, the naive baseline and the peer.
    struct Panel {
        std::string lab, name;
        Bound bound;
        std::vector<const Row*> bars;
    };
    std::vector<Panel> panels;
    for (const Row& r : rows) {
        if (panels.empty() || panels.back().lab != r.lab || panels.back().name != r.case_name)
            panels.push_back({r.lab, r.case_name, r.bound, {}});
        panels.back().bars.push_back(&r);
    }
    // One scale for every memory-bound panel (the roofline included), one for the compute-bound ones.
    double top[2] = {0.0, 0.0};
    for (const Row& r : rows)
        if (r.ok) top[int(r.bound)] = std::max(top[int(r.bound)], r.throughput);
    const bool has_roofline = roofline.ok;
    if (has_roofline) top[int(Bound::Memory)] = std::max(top[int(Bound::Memory)], roofline.throughput);
    double step[2], axis_max[2];
    for (int b = 0; b < 2; ++b) {
        const double t = top[b] > 0 ? top[b] * 1.08 : 1.0;
        step[b] = nice_step(t, 5);
        axis_max[b] = std::ceil(t / step[b]) * step[b];
    }

    const char* colours[] = {"#3b6fb6", "#e08a2e", "#4c9a52"};  // reference, naive, peer
    const char* roles[] = {"reference", "naive", "peer"};
    const int panel_w = 200, axis_w = 52, plot_h = 260, top_y = 96, bar_w = 34, bar_gap = 10;
    const int width = std::max(40 + int(panels.size()) * panel_w, 560);
    const int height = top_y + plot_h + 78;
    std::ostringstream s;
    s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
      << width << " " << height << "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
    s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    s << "<text x=\"20\" y=\"26\" font-size=\"16\" font-weight=\"bold\">" << xml(title) << "</text>\n";
    s << "<text x=\"20\" y=\"44\" font-size=\"11\" fill=\"#444\">" << xml(subtitle) << "</text>\n";
    // Legend.
    int lx = 20;
    for (int i = 0; i < 3; ++i) {
        s << "<rect x=\"" << lx << "\" y=\"56\" width=\"12\" height=\"12\" fill=\"" << colours[i] << "\"/>";
        s << "<text x=\"" << lx + 16 << "\" y=\"66\" font-size=\"11\">" << roles[i] << "</text>\n";
        lx += 90;
    }
    if (has_roofline) {
        s << "<line x1=\"" << lx << "\" y1=\"62\" x2=\"" << lx + 22
          << "\" y2=\"62\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>";
        s << "<text x=\"" << lx + 26 << "\" y=\"66\" font-size=\"11\">copy roofline ("
          << xml(format("%.0f", roofline.throughput)) << " GB/s, " << xml(roofline.name) << ")</text>\n";
    }

    for (std::size_t p = 0; p < panels.size(); ++p) {
        const Panel& panel = panels[p];
        const int b = int(panel.bound);
        const int x0 = 20 + int(p) * panel_w, px = x0 + axis_w, y_base = top_y + plot_h;
        auto y_of = [&](double v) { return y_base - v / axis_max[b] * plot_h; };
        // Axis, ticks and grid.
        for (double v = 0; v <= axis_max[b] + step[b] / 2; v += step[b]) {
            const double y = y_of(v);
            s << "<line x1=\"" << px << "\" y1=\"" << y << "\" x2=\"" << px + 3 * (bar_w + bar_gap) + bar_gap << "\" y2=\""
              << y << "\" stroke=\"#e4e4e4\"/>";
            s << "<text x=\"" << px - 4 << "\" y=\"" << y + 3.5 << "\" font-size=\"9\" text-anchor=\"end\" fill=\"#555\">"
              << format(step[b] < 1 ? "%.1f" : "%.0f", v) << "</text>\n";
        }
        s << "<line x1=\"" << px << "\" y1=\"" << top_y << "\" x2=\"" << px << "\" y2=\"" << y_base
          << "\" stroke=\"#333\"/>";
        s << "<text transform=\"translate(" << x0 + 10 << "," << top_y + plot_h / 2
          << ") rotate(-90)\" font-size=\"10\" text-anchor=\"middle\" fill=\"#333\">" << unit(panel.bound) << "</text>\n";
        // Bars.
        for (const Row* r : panel.bars) {
            const int i = r->role == "reference" ? 0 : r->role == "naive" ? 1 : 2;
            const int bx = px + bar_gap + i * (bar_w + bar_gap);
            if (!r->ok) {
                s << "<text x=\"" << bx + bar_w / 2 << "\" y=\"" << y_base - 6
                  << "\" font-size=\"9\" text-anchor=\"middle\" fill=\"#c0392b\">wrong</text>\n";
                continue;
            }
            const double y = y_of(r->throughput);
            s << "<rect x=\"" << bx << "\" y=\"" << y << "\" width=\"" << bar_w << "\" height=\"" << y_base - y
              << "\" fill=\"" << colours[i] << "\"><title>" << xml(r->name) << ": " << xml(throughput_text(*r))
              << ", median " << format("%.3f", r->median_ms) << " ms</title></rect>";
            s << "<text x=\"" << bx + bar_w / 2 << "\" y=\"" << y - 4 << "\" font-size=\"9\" text-anchor=\"middle\">"
              << format(r->bound == Bound::Memory ? "%.0f" : "%.1f", r->throughput) << "</text>\n";
        }
        // The roofline, where bytes are what counts.
        if (has_roofline && panel.bound == Bound::Memory) {
            const double y = y_of(roofline.throughput);
            s << "<line x1=\"" << px << "\" y1=\"" << y << "\" x2=\"" << px + 3 * (bar_w + bar_gap) + bar_gap
              << "\" y2=\"" << y << "\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n";
        }
        // Caption: the lab, the case, the reference against the peer.
        const int cx = px + (3 * (bar_w + bar_gap) + bar_gap) / 2;
        s << "<text x=\"" << cx << "\" y=\"" << y_base + 18 << "\" font-size=\"12\" font-weight=\"bold\" "
          << "text-anchor=\"middle\">Lab " << xml(panel.lab) << "</text>";
        s << "<text x=\"" << cx << "\" y=\"" << y_base + 33 << "\" font-size=\"10\" text-anchor=\"middle\">"
          << xml(panel.name) << "</text>";
        const auto ref = std::find_if(panel.bars.begin(), panel.bars.end(),
                                      [](const Row* r) { return r->role == "reference"; });
        if (ref != panel.bars.end() && (*ref)->ok && (*ref)->ratio_to_peer > 0)
            s << "<text x=\"" << cx << "\" y=\"" << y_base + 48 << "\" font-size=\"10\" text-anchor=\"middle\" "
              << "fill=\"#444\">reference " << format("%.2f", (*ref)->ratio_to_peer) << "x peer</text>";
        s << "\n";
    }
    s << "</svg>\n";
    std::ofstream out = open_output(path);
    out << s.str();
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace bench
