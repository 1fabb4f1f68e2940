// The speed checks' shared measurement (speed.hpp's SharedSpeed), exercised without a GPU: three pairs
// of checks in doctest suite "cpu", run with --cpu-only. shared_speed_test.py reads the records they
// send through the grader's channel and asserts what each check must report.
#include "grading.hpp"
#include "speed.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <vector>

namespace {

using Result = std::optional<std::vector<grading::Timings>>;

// A measurement that throws out of the timed loop (a student's launcher that throws on a later call).
grading::SharedSpeed& throws_while_timed() {
    static grading::SharedSpeed shared([]() -> Result { throw std::runtime_error("not timing this"); });
    return shared;
}

// A measurement that throws what is not a std::exception.
grading::SharedSpeed& throws_an_int() {
    static grading::SharedSpeed shared([]() -> Result { throw 42; });
    return shared;
}

// A gate that fails: the failure is recorded, and there is nothing to judge.
grading::SharedSpeed& gate_fails() {
    static grading::SharedSpeed shared([]() -> Result {
        grading::fail(grading::Failure::WrongResult, "the gate's result is wrong");
        return std::nullopt;
    });
    return shared;
}

// A measurement that succeeds: one Timings a criterion, measured once for both checks.
int measurements = 0;
grading::SharedSpeed& measures() {
    static grading::SharedSpeed shared([]() -> Result {
        ++measurements;
        grading::Timings first, second;
        first.student_ms = 1.0;
        second.student_ms = 2.0;
        return std::vector<grading::Timings>{first, second};
    });
    return shared;
}

}  // namespace

TEST_CASE("throw while timed, first check" * doctest::test_suite("cpu")) { CHECK(throws_while_timed().timings(0) == nullptr); }
TEST_CASE("throw while timed, second check" * doctest::test_suite("cpu")) { CHECK(throws_while_timed().timings(1) == nullptr); }
TEST_CASE("int thrown, first check" * doctest::test_suite("cpu")) { CHECK(throws_an_int().timings(0) == nullptr); }
TEST_CASE("int thrown, second check" * doctest::test_suite("cpu")) { CHECK(throws_an_int().timings(1) == nullptr); }
TEST_CASE("gate fails, first check" * doctest::test_suite("cpu")) { CHECK(gate_fails().timings(0) == nullptr); }
TEST_CASE("gate fails, second check" * doctest::test_suite("cpu")) { CHECK(gate_fails().timings(1) == nullptr); }

TEST_CASE("measured, first check" * doctest::test_suite("cpu")) {
    const grading::Timings* t = measures().timings(0);
    REQUIRE(t != nullptr);
    CHECK(t->student_ms == 1.0);
}
TEST_CASE("measured, second check" * doctest::test_suite("cpu")) {
    const grading::Timings* t = measures().timings(1);
    REQUIRE(t != nullptr);
    CHECK(t->student_ms == 2.0);
    CHECK(measurements == 1);  // measured once, for both
}
