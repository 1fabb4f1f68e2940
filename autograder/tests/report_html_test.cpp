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

// A speed check with its figure line as the checks write it (reduction_bench.hpp; Labs 03-05's checks).
CheckResult speed(const std::string& name, double value, double threshold, const std::string& unit, bool pass,
                  const std::string& figures) {
    CheckResult c = check(name, 2);
    c.value = value;
    c.threshold = threshold;
    c.unit = unit;
    c.notes = {"timed across the process boundary in batches of 8 calls", figures};
    if (!pass) {
        c.points = 0;
        c.cls = Failure::TooSlow;
        c.message = name + " is " + std::to_string(value) + unit;
        c.hint = "stage the tile in shared memory";
    }
    return c;
}

const std::string kLab01 = "n = 2^28: yours 2871 GB/s, naive 520 GB/s, CUB 3039 GB/s (medians, 1 round(s))";
const std::string kLab03 = "4096^3: yours 46.8 TFLOP/s (90% of cuBLAS), naive 5.5 TFLOP/s, cublasSgemm FP32 51.7 "
                           "TFLOP/s (medians, 1 round(s))";

CheckResult ncu_figure() {
    CheckResult c = check("shared memory free of bank conflicts (Nsight Compute)", 1);
    c.value = 0.01;
    c.threshold = 0.4;
    c.higher_is_better = false;
    c.unit = " replays per wavefront needed";
    return c;
}

// Lab 06's slowdown is a ratio too, but not a speed: its plot is the curve.
CheckResult slowdown() {
    CheckResult c = check("measured slowdown of 4-byte strides follows the model", 2);
    c.value = 27.9;
    c.threshold = 8;
    c.unit = "x";
    c.notes = {"4-byte words, slowdown T(s)/T(1) by stride s: 1:1 2:1.88 3:1.00"};
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
                    {check("sum of 2^28 floats", 3), speed("speed: faster than the one-element-per-thread baseline", 5.52, 2.5, "x", true, kLab01),
                     speed("speed: close to cub::DeviceReduce::Sum", 0.94, 0.7, "x CUB", true, kLab01)},
                    0.5, 3.0, "build/grading/lab01_solution.log", {}, {}});
    labs.push_back({"03", "Tiled matrix multiplication", "solution",
                    {check("matches the reference", 4), speed("speed: close to cublasSgemm in FP32 (no TF32)", 0.90, 0.5, "x cuBLAS", true, kLab03),
                     // Nsight Compute's figure has a threshold but no speeds: no chart
                     ncu_figure()},
                    0.5, 3.0, "", {}, {}});
    labs.push_back({"06", "Bank conflicts", "solution",
                    {check("conflict_ways for 4-byte words at every stride", 2), slowdown(), check("detector names the ways", 2)},
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
                    {wrong, speed("speed: close to cub::DeviceReduce::Sum", 0.41, 0.7, "x CUB", false,
                           "n = 2^28: yours 1246 GB/s, naive 520 GB/s, CUB 3039 GB/s (medians, 1 round(s))"),
                     race, skipped},
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

TEST_CASE("the HTML report shows each check, a chart per speed measurement, and Lab 06's curve") {
    const std::string page = grading::report_html(passing_grading(), run_info(), model_curve());
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(page, "<section id=\"lab") == 3);
    CHECK(count(page, "<tr class=\"pass\">") == 9);
    CHECK(count(page, "<svg class=\"speed\"") == 2);  // one chart per measurement: Lab 01's two checks share one
    CHECK(count(page, "<rect class=\"bar ") == 6);     // naive, peer and yours
    CHECK(count(page, "<line class=\"threshold\"") == 3);
    CHECK(count(page, ">naive baseline</text>") == 2);
    CHECK(count(page, ">CUB</text>") == 1);
    CHECK(count(page, ">cublasSgemm FP32</text>") == 1);
    CHECK(page.find(">2871 GB/s</text>") != std::string::npos);
    CHECK(page.find(">46.8 TFLOP/s</text>") != std::string::npos);
    // Lab 01's thresholds where the student's bar must reach: 2.5 x 520 and 0.7 x 3039 GB/s of a 3404 scale
    CHECK(page.find("needs &#8805; 2.50x naive") != std::string::npos);
    CHECK(page.find("needs &#8805; 0.70x CUB") != std::string::npos);
    CHECK(page.find("needs &#8805; 0.50x cublasSgemm FP32") != std::string::npos);
    CHECK(count(page, "<svg class=\"curve\"") == 2);   // 4-byte and 8-byte words
    CHECK(count(page, "<circle class=\"point\"") == 64);
    CHECK(count(page, "class=\"failure\"") == 0);
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find("76/76") == std::string::npos);
    CHECK(page.find("Grading report: <span class=\"status pass\">20/20 PASS") != std::string::npos);
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

TEST_CASE("without a GPU the page says what was built and that nothing was graded, never a score") {
    CheckResult not_run = check("sum of 2^28 floats", 3);
    not_run.points = 0;
    not_run.cls = Failure::NotRun;
    not_run.message = "not run: no GPU on this machine";
    CheckResult refused = check("exact max at edge sizes", 3);
    refused.points = 0;
    refused.cls = Failure::DoesNotCompile;
    refused.message = "max_reduce.cu:40: error: expected ';'";
    std::vector<LabResult> labs;
    labs.push_back({"01", "Sum reduction", "student", {not_run}, 2.0, 0.0, "build/grading/lab01_student.log", {}, {}});
    labs.push_back({"02", "Max reduction", "student", {refused}, 1.0, 0.0, "build/grading/lab02_student.log", {}, {}});
    grading::RunInfo none;
    none.build_seconds = 3.0;
    const std::string page = grading::report_html(labs, none, {});
    CHECK(page.find("<span class=\"status fail\">NOT GRADED</span>") != std::string::npos);
    CHECK(page.find("GPU: none") != std::string::npos);
    CHECK(page.find("seed:") == std::string::npos);  // no input was drawn
    CHECK(page.find("builds; not graded") != std::string::npos);
    CHECK(page.find(">does not compile</span>") != std::string::npos);
    CHECK(page.find("0/3") == std::string::npos);      // no check is scored
    CHECK(page.find(" FAIL (") == std::string::npos);  // nor any lab
    CHECK(page.find("max_reduce.cu:40: error: expected") != std::string::npos);  // the build's message
    // A check that did not run is not a failure: no red row, no box with a hint.
    CHECK(count(page, "<tr class=\"skipped\">") == 1);
    CHECK(count(page, "<div class=\"failure\">") == 1);  // Lab 02's build
    CHECK(count(page, "<div class=\"skipped\">") == 0);
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

TEST_CASE("a speed check's figures are read from its note, in each lab's form, and from no other check") {
    const auto figures = [](const std::string& note, const std::string& unit = "x") {
        CheckResult c = speed("speed", 1.0, 0.5, unit, true, note);
        return grading::speed_figures(c);
    };
    const auto lab01 = figures(kLab01, "x CUB");
    REQUIRE(lab01);
    CHECK(lab01->where == "n = 2^28");
    CHECK(lab01->unit == "GB/s");
    CHECK(lab01->yours == 2871);
    CHECK(lab01->naive == 520);
    CHECK(lab01->peer == "CUB");
    CHECK(lab01->peer_value == 3039);
    const auto lab03 = figures(kLab03);
    REQUIRE(lab03);
    CHECK(lab03->unit == "TFLOP/s");
    CHECK(lab03->yours == doctest::Approx(46.8));
    CHECK(lab03->peer == "cublasSgemm FP32");
    const auto lab04 = figures("8192 x 8192, counting read + write: yours 2799 GB/s, naive 453 GB/s, cudaMemcpy 2890 GB/s "
                               "(medians, 1 round(s))");
    REQUIRE(lab04);
    CHECK(lab04->where == "8192 x 8192, counting read + write");
    CHECK(lab04->peer == "cudaMemcpy");
    const auto lab05 = figures("8192x8192, K = 7: yours 2640 GB/s, naive 547 GB/s, copy 2902 GB/s (read + write counted; "
                               "medians, 1 round(s))");
    REQUIRE(lab05);
    CHECK(lab05->where == "8192x8192, K = 7");
    CHECK(lab05->peer == "copy");
    CHECK(lab05->peer_value == 2902);
    // Mixed units, a missing contender, or a check whose figure is not a ratio: no figures.
    CHECK_FALSE(figures("n = 2^28: yours 2871 GB/s, naive 520 TFLOP/s, CUB 3039 GB/s"));
    CHECK_FALSE(figures("n = 2^28: yours 2871 GB/s, CUB 3039 GB/s"));
    CHECK_FALSE(figures(kLab01, " replays per wavefront needed"));
    CheckResult no_value = speed("speed", 1.0, 0.5, "x", true, kLab01);
    no_value.value.reset();
    CHECK_FALSE(grading::speed_figures(no_value));
}
