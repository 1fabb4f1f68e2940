// CPU tests of autograder/support/residues.hpp: the sizes and shapes the labs' exact checks and memory
// and race checks take reach every residue class of their widths, and stay small.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "residues.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <set>
#include <utility>
#include <vector>

namespace {

// True when @p values hold every residue mod @p w.
bool covers(const std::vector<std::size_t>& values, std::size_t w) {
    std::set<std::size_t> seen;
    for (std::size_t v : values) seen.insert(v % w);
    return seen.size() == w;
}

template <std::size_t D>
std::vector<std::size_t> column(const std::vector<std::array<std::size_t, D>>& shapes, std::size_t d) {
    std::vector<std::size_t> c;
    for (const auto& s : shapes) c.push_back(s[d]);
    return c;
}

}  // namespace

TEST_CASE("residue_period is the lcm of the widths") {
    CHECK(grading::residue_period({}) == 1);
    CHECK(grading::residue_period({2, 4, 8, 16, 32, 64}) == 64);
    CHECK(grading::residue_period({4, 6}) == 12);
    CHECK_THROWS(grading::residue_period({0}));
}

TEST_CASE("residue_sizes: every residue of every width, one size each, none 0, bounded") {
    for (const std::vector<std::size_t>& widths :
         {std::vector<std::size_t>{2, 4}, {2, 4, 8, 16, 32, 64}, {3, 4}, {4, 32, 128}}) {
        const std::vector<std::size_t> bases = {0, 1, 5, 70};
        const auto sizes = grading::residue_sizes(widths, bases);
        const std::size_t l = grading::residue_period(widths);
        CHECK(sizes.size() == l);
        for (std::size_t w : widths) CHECK(covers(sizes, w));
        CHECK(covers(sizes, l));
        for (std::size_t n : sizes) {
            CHECK(n >= 1);
            CHECK(n < (70 + 1) * l);  // the largest base bounds them
        }
    }
}

TEST_CASE("chunk_edge_sizes: 1 to 3 short of, and 1 past, whole chunks of every power of two in the range") {
    const auto sizes = grading::chunk_edge_sizes(7, 16, 3);
    CHECK(sizes.size() == 10 * 4);
    for (unsigned j = 7; j <= 16; ++j) {
        const std::size_t chunk = std::size_t(1) << j;
        // A chunk count rounded up is wrong (reads past n) exactly when n % chunk is chunk - 3 .. chunk - 1
        // with float4 counts, or n % chunk == 1 for a count rounded down: each is met, past two chunks.
        for (const std::size_t r : {chunk - 3, chunk - 2, chunk - 1, std::size_t(1)}) {
            const bool met = std::any_of(sizes.begin(), sizes.end(),
                                         [&](std::size_t n) { return n % chunk == r && n / chunk >= 2; });
            CHECK_MESSAGE(met, "chunk 2^" << j << ", remainder " << r);
        }
    }
    // Lab 01's attack9_chunk_count_rounded_up: chunks of 8192, wrong when n % 8192 is 8189 to 8191.
    CHECK(std::count_if(sizes.begin(), sizes.end(), [](std::size_t n) { return n % 8192 >= 8189; }) >= 3);
    CHECK_THROWS_AS(grading::chunk_edge_sizes(1, 4, 1), std::invalid_argument);
    CHECK_THROWS_AS(grading::chunk_edge_sizes(5, 4, 1), std::invalid_argument);
    CHECK_THROWS_AS(grading::chunk_edge_sizes(5, 6, 0), std::invalid_argument);
}

TEST_CASE("exact_sizes_1d: the edge sizes, every residue and every chunk edge, the last edge size last") {
    const std::vector<std::size_t> edge = {1, 33, 1000, 1u << 22};
    const auto sizes = grading::exact_sizes_1d(edge, {2, 4, 8}, {0, 3});
    CHECK(sizes.back() == (1u << 22));
    for (std::size_t n : grading::residue_sizes({2, 4, 8}, {0, 3})) CHECK(std::count(sizes.begin(), sizes.end(), n) == 1);
    for (std::size_t n : grading::chunk_edge_sizes(7, 16, 3)) CHECK(std::count(sizes.begin(), sizes.end(), n) == 1);
    CHECK(sizes == grading::with_residues(edge, [] {
              auto extra = grading::residue_sizes({2, 4, 8}, {0, 3});
              const auto chunks = grading::chunk_edge_sizes(7, 16, 3);
              extra.insert(extra.end(), chunks.begin(), chunks.end());
              return extra;
          }()));
}

TEST_CASE("with_residues keeps the edge sizes and their last one last") {
    const std::vector<std::size_t> edge = {1, 31, 32, 33, 1000, 1u << 20};
    const auto merged = grading::with_residues(edge, grading::residue_sizes({2, 4, 8}, {0, 1}));
    REQUIRE(!merged.empty());
    CHECK(merged.back() == (1u << 20));
    for (std::size_t n : edge) CHECK(std::count(merged.begin(), merged.end(), n) == 1);
    CHECK(covers(merged, 8));
    CHECK(std::is_sorted(merged.begin(), merged.end() - 1));
}

TEST_CASE("residue_shapes in 2-D: every residue per dimension, and every pair mod 8") {
    const std::array<std::vector<std::size_t>, 2> widths = {std::vector<std::size_t>{2, 4, 32, 64}, {2, 4, 32, 64}};
    const auto shapes = grading::residue_shapes<2>(widths, {{{1, 2}, {1, 2}}});
    CHECK(shapes.size() == 64);
    for (std::size_t d = 0; d < 2; ++d) {
        const auto c = column(shapes, d);
        for (std::size_t w : {2, 4, 8, 16, 32, 64}) CHECK(covers(c, w));
        for (std::size_t n : c) CHECK((n >= 64 && n < 192));
    }
    std::set<std::pair<std::size_t, std::size_t>> pairs;
    for (const auto& s : shapes) pairs.insert({s[0] % 8, s[1] % 8});
    CHECK(pairs.size() == 64);
    // One side a multiple of 32 beside a ragged other side, both ways round.
    bool rows32 = false, cols32 = false;
    for (const auto& s : shapes) {
        rows32 |= s[0] % 32 == 0 && s[1] % 32 != 0;
        cols32 |= s[1] % 32 == 0 && s[0] % 32 != 0;
    }
    CHECK(rows32);
    CHECK(cols32);
}

TEST_CASE("residue_shapes with unequal periods and in 3-D") {
    // Lab 05's: widths mod 128, heights mod 32.
    const auto img = grading::residue_shapes<2>({{{4, 32, 128}, {8, 32}}}, {{{0, 1}, {0}}});
    CHECK(img.size() == 128);
    CHECK(covers(column(img, 0), 128));
    CHECK(covers(column(img, 1), 32));
    bool even_odd = false;  // a width of 2 mod 4 beside an odd height
    for (const auto& s : img) even_odd |= s[0] % 4 == 2 && s[1] % 2 == 1;
    CHECK(even_odd);
    // Lab 03's: M, N, K each mod 64, every triple of residues mod 4.
    const std::vector<std::size_t> w = {2, 4, 8, 16, 32, 64};
    const auto mnk = grading::residue_shapes<3>({{w, w, w}}, {{{0, 1}, {0, 1}, {0}}});
    CHECK(mnk.size() == 64);
    std::set<std::array<std::size_t, 3>> triples;
    for (const auto& s : mnk) {
        triples.insert({s[0] % 4, s[1] % 4, s[2] % 4});
        for (std::size_t n : s) CHECK((n >= 1 && n < 128));
    }
    for (std::size_t d = 0; d < 3; ++d) CHECK(covers(column(mnk, d), 64));
    CHECK(triples.size() == 64);
    CHECK_THROWS(grading::residue_shapes<2>({{{3}, {4}}}, {{{1}, {1}}}));  // a period of 3 cannot be rotated
}
