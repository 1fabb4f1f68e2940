// CPU tests of common/: comparisons, seeded random data, medians, guard-zone messages.
#include <doctest/doctest.h>

#include "compare.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"
#include "timer.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

TEST_CASE("compare: NaN never passes, not even against NaN") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> got = {1.0f, nan, 3.0f};
    const std::vector<double> ref = {1.0, 2.0, 3.0};
    auto c = course::compare(got, ref, course::Tolerance{1e-3, 1e-3});
    CHECK(c.mismatches == 1);
    REQUIRE(c.first.size() == 1);
    CHECK(c.first[0].index == 1);
    const std::vector<double> ref_nan = {1.0, std::nan(""), 3.0};
    CHECK(course::compare(got, ref_nan, course::Tolerance{}).mismatches == 1);
    CHECK(course::compare(got.data(), ref_nan.data(), 3, course::Tolerance{}, 5, true).ok());
}

TEST_CASE("compare: atol + rtol * |ref| is the bound, and the first mismatches are listed in order") {
    const std::vector<float> got = {100.5f, 1.0f, 0.0f, 5.0f, 7.0f};
    const std::vector<double> ref = {100.0, 1.2, 0.0, 6.0, 9.0};
    auto c = course::compare(got, ref, course::Tolerance{0.01, 0.01}, 2);
    CHECK(c.checked == 5);
    CHECK(c.mismatches == 3);  // 100.5 within 0.01 + 1.0; the rest not
    REQUIRE(c.first.size() == 2);
    CHECK(c.first[0].index == 1);
    CHECK(c.first[1].index == 3);
    CHECK(c.summary().find("3 of 5 elements differ") != std::string::npos);
}

TEST_CASE("compare: poisoned (never written) elements are counted and 2-D indices print as [row][col]") {
    float poison;
    const unsigned all_ones = 0xFFFFFFFFu;
    std::memcpy(&poison, &all_ones, sizeof poison);
    const std::vector<float> got = {1.0f, 2.0f, 3.0f, poison};
    const std::vector<double> ref = {1.0, 2.0, 3.0, 4.0};
    auto c = course::compare(got, ref, course::Tolerance::exact());
    c.row_width = 2;
    CHECK(c.unwritten == 1);
    CHECK(c.summary().find("out[1][1]") != std::string::npos);
    CHECK(c.summary().find("never written") != std::string::npos);
}

TEST_CASE("random data is a pure function of (seed, index), in range, and seeds differ") {
    const auto a = course::uniform_floats(1000, 42, -1.0f, 1.0f);
    const auto b = course::uniform_floats(1000, 42, -1.0f, 1.0f);
    const auto c = course::uniform_floats(1000, 43, -1.0f, 1.0f);
    CHECK(a == b);
    CHECK(a != c);
    double mean = 0;
    for (float x : a) {
        CHECK(x >= -1.0f);
        CHECK(x < 1.0f);
        mean += x / a.size();
    }
    CHECK(std::fabs(mean) < 0.1);
    std::set<float> ints;
    for (float x : course::integer_floats(2000, 7, -8, 8)) ints.insert(x);
    CHECK(ints.size() == 17);
    CHECK(*ints.begin() == -8.0f);
    CHECK(*ints.rbegin() == 8.0f);
    CHECK(course::derive_seed(1, "lab01", 5) != course::derive_seed(1, "lab02", 5));
    CHECK(course::derive_seed(1, "lab01", 5) == course::derive_seed(1, "lab01", 5));
}

TEST_CASE("keyed_hash64 is SipHash-2-4") {
    // The reference vectors of SipHash's paper (Appendix A) and its vectors.h: key 00 01 ... 0f, messages
    // 00 01 ... (n - 1) for n = 0, 1, 7, 8 and 15.
    const std::uint64_t k0 = 0x0706050403020100ull, k1 = 0x0f0e0d0c0b0a0908ull;
    std::string m;
    for (int i = 0; i < 15; ++i) m += static_cast<char>(i);
    CHECK(course::keyed_hash64(k0, k1, m) == 0xa129ca6149be45e5ull);
    CHECK(course::keyed_hash64(k0, k1, "") == 0x726fdb47dd0e0e31ull);
    CHECK(course::keyed_hash64(k0, k1, m.substr(0, 1)) == 0x74f839c593dc67fdull);
    CHECK(course::keyed_hash64(k0, k1, m.substr(0, 7)) == 0xab0200f58b01d137ull);
    CHECK(course::keyed_hash64(k0, k1, m.substr(0, 8)) == 0x93f5f5799a932462ull);
    CHECK(course::keyed_hash64(k0 ^ 1, k1, m) != 0xa129ca6149be45e5ull);
}

TEST_CASE("large random inputs, generated on several threads, hold exactly each index's value") {
    // Above 2^20 elements the host generators split the work over the CPU's cores: every element must
    // still be the one its index gives, wherever the split falls (the first, the last, around 2^20).
    const std::size_t n = (std::size_t(1) << 21) + 7;
    const auto u = course::uniform_floats(n, 99, -1.0f, 1.0f);
    const auto k = course::integer_floats(n, 5, -8, 8);
    REQUIRE(u.size() == n);
    REQUIRE(k.size() == n);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; i += (i < 4096 || n - i < 4096 || (i > (1u << 20) - 64 && i < (1u << 20) + 64)) ? 1 : 997)
        mismatches += (u[i] != course::uniform_at(99, i, -1.0f, 1.0f)) +
                      (k[i] != static_cast<float>(course::integer_at(5, i, -8, 8)));
    CHECK(mismatches == 0);
}

TEST_CASE("median of odd and even counts") {
    CHECK(course::median({5.0, 1.0, 3.0}) == 3.0);
    CHECK(course::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
    CHECK(course::median({}) == 0.0);
    CHECK(course::gb_per_s(2e9, 1000.0) == doctest::Approx(2.0));
}

TEST_CASE("guard violations say where the write landed") {
    CHECK(course::GuardViolation{true, -1}.describe() == "wrote out[-1] (front guard zone, outside the output)");
    CHECK(course::GuardViolation{false, 10}.describe().find("out[10] (back") != std::string::npos);
}

TEST_CASE("a seed is a non-negative integer and nothing else") {
    CHECK(course::parse_seed("0") == std::optional<std::uint64_t>(0));
    CHECK(course::parse_seed("123") == std::optional<std::uint64_t>(123));
    CHECK(course::parse_seed("0x10") == std::optional<std::uint64_t>(16));
    CHECK(course::parse_seed("18446744073709551615") == std::optional<std::uint64_t>(18446744073709551615ull));
    for (const char* bad : {"", "abc", "-1", "+1", " 1", "12x", "1.5", "18446744073709551616"})
        CHECK_MESSAGE(!course::parse_seed(bad), bad);
}
