// The HTML report (runner/report_html.hpp): what each page holds, and two sample pages (a passing grading
// of every lab, a failing one) written for the browser test (report_browser_test.py) to open in Chromium.
#include <doctest/doctest.h>

#include "report_html.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <string>

namespace {

using grading::CheckResult;
using grading::Failure;
using grading::LabResult;

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

CheckResult check(const std::string& name, double points) {
    CheckResult c;
    c.name = name;
    c.points = c.max_points = points;
    return c;
}

CheckResult speed(const std::string& name, double value, double threshold, const std::string& unit, bool pass) {
    CheckResult c = check(name, 2);
    c.value = value;
    c.threshold = threshold;
    c.unit = unit;
    c.notes = {"yours 1.23 ms, naive 6.54 ms, peer 1.10 ms (medians of 15)"};
    if (!pass) {
        c.points = 0;
        c.cls = Failure::TooSlow;
        c.message = name + " is " + std::to_string(value) + unit;
        c.hint = "stage the tile in shared memory";
    }
    return c;
}

// Lab 06's curve as the model gives it, with a throughput benchmark's fixed part (T(s) = F + ways * P).
std::vector<grading::StridePoint> model_curve() {
    std::vector<grading::StridePoint> points;
    for (int word_bytes : {4, 8})
        for (int s = 1; s <= 32; ++s) {
            const int ways = std::gcd(s, 128 / word_bytes);
            points.push_back({s, word_bytes, 1.0 + (ways - 1) * 0.85, ways});
        }
    return points;
}

std::vector<LabResult> passing_grading() {
    std::vector<LabResult> labs;
    labs.push_back({"01", "Sum reduction", "solution",
                    {check("sum of 2^28 floats", 3), speed("speed: faster than the one-element-per-thread baseline", 5.6, 2.5, "x", true),
                     speed("speed: close to cub::DeviceReduce::Sum", 0.99, 0.7, "x CUB", true)},
                    0.5, 3.0, "build/grading/lab01_solution.log", {}, {}});
    labs.push_back({"03", "Tiled matrix multiplication", "solution",
                    {check("matches the reference", 4), speed("speed: close to cublasSgemm in FP32 (no TF32)", 0.91, 0.5, "x cuBLAS", true)},
                    0.5, 3.0, "", {}, {}});
    labs.push_back({"06", "Bank conflicts", "solution",
                    {check("conflict_ways for 4-byte words at every stride", 2), check("detector names the ways", 2)},
                    0.5, 3.0, "", {}, {}});
    return labs;
}

std::vector<LabResult> failing_grading() {
    std::vector<LabResult> labs;
    CheckResult wrong = check("sum of 2^28 floats", 3);
    wrong.points = 0;
    wrong.cls = Failure::WrongResult;
    wrong.message = "n = 33: got 12.5, expected 13.75 (an element <missing> & dropped)";
    wrong.hint = "the last partial block: guard with i < n, not i < n - 1";
    CheckResult race = check("memory and race check (compute-sanitizer)", 1);
    race.points = 0;
    race.cls = Failure::RaceCondition;
    race.message = "racecheck: 4 hazards";
    race.notes = {"========= Error: Race reported between Write access at block_sum_kernel+0x120 in sum_reduction.cu:41",
                  "=========     and Read access at block_sum_kernel+0x1a0 in sum_reduction.cu:45 [3 hazards]"};
    CheckResult skipped = check("shared memory used as the lab teaches (Nsight Compute)", 0);
    skipped.skipped = true;
    skipped.message = "not run: Nsight Compute cannot read the GPU's counters here";
    labs.push_back({"01", "Sum reduction", "student",
                    {wrong, speed("speed: close to cub::DeviceReduce::Sum", 0.41, 0.7, "x CUB", false), race, skipped},
                    0.5, 3.0, "build/grading/lab01_student.log", {"edits outside the student regions were dropped"}, {}});
    return labs;
}

grading::RunInfo run_info() {
    grading::RunInfo info;
    info.gpu = "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)";
    info.seed = 12345;
    info.build_seconds = 4.5;
    info.grade_seconds = 31.0;
    return info;
}

}  // namespace

TEST_CASE("the HTML report shows each check, a chart per speed check, and Lab 06's curve") {
    const std::string page = grading::report_html(passing_grading(), run_info(), model_curve());
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(page, "<section id=\"lab") == 3);
    CHECK(count(page, "<tr class=\"pass\">") == 7);
    CHECK(count(page, "<svg class=\"speed\"") == 3);  // one chart per check with a figure
    CHECK(count(page, "<rect class=\"bar ") == 6);     // the contender compared with, and yours
    CHECK(count(page, "<line class=\"threshold\"") == 3);
    CHECK(count(page, ">CUB</text>") == 1);            // what each ratio is a ratio to
    CHECK(count(page, ">naive baseline</text>") == 1);
    CHECK(count(page, ">cuBLAS</text>") == 1);
    CHECK(count(page, "<svg class=\"curve\"") == 2);   // 4-byte and 8-byte words
    CHECK(count(page, "<circle class=\"point\"") == 64);
    CHECK(count(page, "class=\"failure\"") == 0);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("76/76") == std::string::npos);
    CHECK(page.find("Grading report: <span class=\"status pass\">17/17 PASS") != std::string::npos);
    std::ofstream(std::string(SAMPLE_REPORT_DIR) + "/sample_report_pass.html") << page;

    // Without a curve (Lab 06 not run in this grading), none is drawn.
    CHECK(count(grading::report_html(passing_grading(), run_info(), {}), "<svg class=\"curve\"") == 0);
}

TEST_CASE("the HTML report shows each failure with its class, message, hint and the tool's lines, escaped") {
    const std::string page = grading::report_html(failing_grading(), run_info(), {});
    CHECK(count(page, "<div class=\"failure\">") == 3);
    CHECK(count(page, "<div class=\"skipped\">") == 1);
    CHECK(page.find("<p class=\"class\">wrong result</p>") != std::string::npos);
    CHECK(page.find("an element &lt;missing&gt; &amp; dropped") != std::string::npos);
    CHECK(page.find("<missing>") == std::string::npos);
    CHECK(page.find("hint: the last partial block") != std::string::npos);
    CHECK(page.find("sum_reduction.cu:41") != std::string::npos);  // compute-sanitizer's line
    CHECK(page.find("edits outside the student regions were dropped") != std::string::npos);
    CHECK(count(page, "fill=\"#c62828\"") == 1);  // the failing speed check's bar is red
    CHECK(page.find("status fail") != std::string::npos);
    std::ofstream(std::string(SAMPLE_REPORT_DIR) + "/sample_report_fail.html") << page;
}

TEST_CASE("Lab 06's curve file is read back, and a malformed one gives no curve") {
    const std::string path = std::string(SAMPLE_REPORT_DIR) + "/sample_strides.csv";
    std::ofstream(path) << "stride,word_bytes,ms,slowdown,model_ways\n1,4,0.058,1,1\n2,4,0.108,1.86,2\n";
    const auto points = grading::read_stride_curve(path);
    REQUIRE(points.size() == 2);
    CHECK(points[1].stride == 2);
    CHECK(points[1].slowdown == doctest::Approx(1.86));
    CHECK(points[1].model_ways == 2);
    std::ofstream(path) << "stride,word_bytes,ms,slowdown,model_ways\n1,4,0.058,oops,1\n";
    CHECK(grading::read_stride_curve(path).empty());
    std::ofstream(path) << "something else\n";
    CHECK(grading::read_stride_curve(path).empty());
    std::remove(path.c_str());
    CHECK(grading::read_stride_curve(path).empty());
}
