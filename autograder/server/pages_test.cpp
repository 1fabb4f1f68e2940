// What the web pages need of the store and of results.json (sessions, the report kept with a result, the
// ranking, the workers' records), and the gradings a GPU would give that the pages' browser test serves:
// results.json and report.html written by the runner's own renderers, into PAGES_FIXTURE_DIR.
#include "pages.hpp"
#include "report_html.hpp"
#include "reports.hpp"
#include "store.hpp"
#include "tokens.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace service;
using grading::CheckResult;
using grading::Failure;
using grading::LabResult;

std::unique_ptr<Store> test_store(const std::string& sqlite_path);  // service_test.cpp

namespace {
double now_s() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }

CheckResult check(const std::string& name, double points, Failure cls = Failure::None) {
    CheckResult c;
    c.name = name;
    c.max_points = points;
    c.points = cls == Failure::None ? points : 0;
    c.cls = cls;
    if (cls != Failure::None) c.message = "element 1000 is 3.0, expected 4.0", c.hint = "a block's last partial tile";
    return c;
}

CheckResult speed(const std::string& name, double value, double threshold, const std::string& unit, const std::string& figures) {
    CheckResult c = check(name, 2, value >= threshold ? Failure::None : Failure::TooSlow);
    c.value = value;
    c.threshold = threshold;
    c.unit = unit;
    c.notes = {figures};
    if (c.cls == Failure::TooSlow) c.message = "below the threshold", c.hint = "more work a thread";
    return c;
}

// Lab 01 graded on a GPU: @p peer is the figure against CUB; @p correct false fails the exact check.
std::vector<LabResult> lab01(double peer, bool correct) {
    const std::string figures = "n = 2^28: yours " + grading::num(3039 * peer, 0) + " GB/s, naive 520 GB/s, CUB 3039 GB/s (medians)";
    return {{"01", "Sum reduction", "student",
             {check("exact sum of integer-valued inputs at edge sizes", 3, correct ? Failure::None : Failure::WrongResult),
              check("sum of random floats within the rounding bound", 2), check("block_sum_kernel reduces in shared memory", 1),
              speed("speed: faster than the one-element-per-thread baseline", 5.6 * peer, 2.5, "x", figures),
              speed("speed: close to cub::DeviceReduce::Sum", peer, 0.7, "x CUB", figures)},
             1.5, 4.0, "", {}, {}}};
}

std::string results_json(const std::vector<LabResult>& labs) {
    grading::RunInfo info;
    info.gpu = "NVIDIA H100 80GB HBM3 (sm_90)";
    info.seed = 1234;
    return grading::gradescope_json(labs, info).dump(2);
}
}  // namespace

TEST_CASE("a session is found by its id's hash until it expires or ends") {
    const fs::path db = fs::temp_directory_path() / ("pages-sessions-" + make_token().substr(0, 8) + ".sqlite");
    {
        const auto store = test_store(db.string());
        Store& s = *store;
        const std::string id = make_token(), old = make_token();
        s.add_session(sha256_hex(id), "ada", now_s() + 60);
        s.add_session(sha256_hex(old), "bob", now_s() - 1);
        REQUIRE(s.session(sha256_hex(id)));
        CHECK(s.session(sha256_hex(id))->who == "ada");
        CHECK_FALSE(s.session(id));  // the id itself is not what is stored
        CHECK_FALSE(s.session(sha256_hex(old)));
        s.end_session(sha256_hex(id));
        CHECK_FALSE(s.session(sha256_hex(id)));
    }
    fs::remove(db), fs::remove(db.string() + "-wal"), fs::remove(db.string() + "-shm");
}

TEST_CASE("a result keeps its report.html, which only its student (or the instructor) gets") {
    const fs::path db = fs::temp_directory_path() / ("pages-report-" + make_token().substr(0, 8) + ".sqlite");
    {
        const auto store = test_store(db.string());
        Store& s = *store;
        Upload up;
        up.content_hash = "h";
        const long long id = s.submit("ada", up, 10).id;
        const auto job = s.claim("gpu0");
        REQUIRE(job);
        CHECK(s.worker_records().at(0).current == id);
        CHECK(s.finish(id, job->claim, 0, "table", results_json(lab01(0.9, true)), "<html>report</html>"));
        CHECK(s.report_html(id, std::string("ada")) == std::string("<html>report</html>"));
        CHECK(s.report_html(id, std::nullopt));
        CHECK_FALSE(s.report_html(id, std::string("bob")));
        const auto w = s.worker_records();
        REQUIRE(w.size() == 1);
        CHECK((w[0].worker == "gpu0" && w[0].done == 1 && w[0].failures == 0 && w[0].current == 0));
    }
    fs::remove(db), fs::remove(db.string() + "-wal"), fs::remove(db.string() + "-shm");
}

TEST_CASE("files from the upload form pass the API's checks") {
    const auto catalog = lab_catalog(RUBRIC_PATH, STARTERS_PATH);
    CHECK(std::holds_alternative<Upload>(check_files({{"sum_reduction.cu", "int x;\n"}}, catalog)));
    CHECK(std::get<std::string>(check_files({}, catalog)).find("no file") != std::string::npos);
    CHECK(std::get<std::string>(check_files({{"../sum_reduction.cu", "x"}}, catalog)).find("separator") != std::string::npos);
    CHECK(std::get<std::string>(check_files({{"evil.cu", "x"}}, catalog)).find("not a lab's source") != std::string::npos);
    CHECK(std::get<std::string>(check_files({{"sum_reduction.cu", "\xff"}}, catalog)).find("UTF-8") != std::string::npos);
}

TEST_CASE("the ranking takes each student's best correct figure against the library, under a pseudonym") {
    const std::vector<RankedResult> results = {
        {"ada", "Amber Otter 12", 1, results_json(lab01(0.82, true))},
        {"ada", "Amber Otter 12", 2, results_json(lab01(0.95, true))},
        {"bob", "Coral Wren 40", 3, results_json(lab01(1.10, false))},  // fast but wrong: not ranked
        {"bob", "Coral Wren 40", 4, results_json(lab01(0.61, true))},   // correct, too slow for the points: ranked
        {"cy", "Jade Ibex 77", 5, "not json"}};
    const auto r = ranking(results);
    REQUIRE(r.size() == 2);
    CHECK((r[0].student == "ada" && r[0].pseudonym == "Amber Otter 12" && r[0].figure == doctest::Approx(0.95)));
    CHECK((r[1].student == "bob" && r[1].figure == doctest::Approx(0.61)));
    CHECK((r[0].lab_id == "01" && r[0].check == "speed: close to cub::DeviceReduce::Sum" && r[0].unit == "x CUB"));

    const fs::path db = fs::temp_directory_path() / ("pages-ranking-" + make_token().substr(0, 8) + ".sqlite");
    {
        const auto store = test_store(db.string());
        Store& s = *store;
        CHECK(s.set_ranked("ada", std::string("Amber Otter 12")));
        CHECK_FALSE(s.set_ranked("bob", std::string("Amber Otter 12")));  // taken
        CHECK(s.pseudonym("ada") == std::string("Amber Otter 12"));
        CHECK_FALSE(s.pseudonym("bob"));
        CHECK(s.set_ranked("ada", std::nullopt));
        CHECK_FALSE(s.pseudonym("ada"));
    }
    fs::remove(db), fs::remove(db.string() + "-wal"), fs::remove(db.string() + "-shm");
}

// The pages' browser test grades with a stand-in for grade on a GPU (tests/gpu_grade_stub.py), which hands
// back one of these gradings: results.json and report.html as the runner writes them, and its table.
TEST_CASE("the gradings a GPU would give, for the pages' browser test") {
    const struct {
        const char* name;
        double peer;
        bool correct;
    } gradings[] = {{"fast", 0.94, true}, {"slow", 0.78, true}, {"wrong", 1.2, false}};
    for (const auto& g : gradings) {
        const fs::path dir = fs::path(PAGES_FIXTURE_DIR) / g.name;
        fs::create_directories(dir);
        const auto labs = lab01(g.peer, g.correct);
        grading::RunInfo info;
        info.gpu = "NVIDIA H100 80GB HBM3 (sm_90)";
        info.seed = 1234;
        std::ofstream(dir / "results.json") << results_json(labs);
        std::ofstream(dir / "report.html") << grading::report_html(labs, info, {});
        std::ofstream(dir / "output.txt") << grading::summary_table(labs, info);
        CHECK(fs::file_size(dir / "report.html") > 1000);
    }
}
