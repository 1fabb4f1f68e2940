// CPU tests of the size-pattern hints the checks attach to wrong results.
#include <doctest/doctest.h>

#include "hints.hpp"

using grading::size_pattern_hint;

TEST_CASE("failing only off multiples of the block size points at the tail") {
    const auto h = size_pattern_hint({{1, false}, {256, true}, {257, false}, {512, true}, {1000, false}}, 256);
    CHECK(h.find("tail") != std::string::npos);
}

TEST_CASE("failing only with several blocks points at combining partial results") {
    const auto h = size_pattern_hint({{1, true}, {200, true}, {256, true}, {257, false}, {512, false}}, 256);
    CHECK(h.find("several") != std::string::npos);
}

TEST_CASE("failing only from some large size on points at overflow") {
    const auto h = size_pattern_hint({{1, false}, {256, true}, {1u << 20, true}, {1u << 26, false}}, 256);
    CHECK(h.empty());  // n = 1 fails too: no clean pattern
    const auto h2 = size_pattern_hint({{1, true}, {256, true}, {1u << 20, true}, {1u << 26, false}}, 256);
    CHECK(h2.find("overflow") != std::string::npos);
}

TEST_CASE("no hint when everything or nothing fails") {
    CHECK(size_pattern_hint({{1, false}, {256, false}}, 256).empty());
    CHECK(size_pattern_hint({{1, true}, {256, true}}, 256).empty());
}
