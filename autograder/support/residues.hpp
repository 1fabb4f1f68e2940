/// @file residues.hpp
/// @brief Sizes and shapes that reach every residue class a vector width or a tile creates.
///
/// A kernel that loads float2 or float4, or works in tiles of 32 or 64, has one code path for each
/// remainder n % w: the tail of a float4 loop holds 0, 1, 2 or 3 elements, the last tile 1 to 63 rows.
/// A bug in one of those paths shows only at sizes with that remainder, so a hand-picked list of sizes
/// misses it unless someone thought of that remainder. These helpers derive the sizes from the widths
/// instead: with L the least common multiple of the widths, sizes n = base * L + r for r = 0 .. L - 1
/// reach every remainder of every width (r mod w runs through 0 .. w - 1 as r does).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

namespace grading {

/// @brief The least common multiple of @p widths (1 for none): residues mod it fix the residue mod each width.
inline std::size_t residue_period(const std::vector<std::size_t>& widths) {
    std::size_t l = 1;
    for (std::size_t w : widths) {
        if (w == 0) throw std::invalid_argument("residue_period: a width of 0");
        l = std::lcm(l, w);
    }
    return l;
}

/// @brief One size for each residue r mod L = residue_period(@p widths): base * L + r, the base taken in
/// turn from @p bases (so the sizes spread over a few multiples of L, some below one tile, some above).
/// Never 0: where base * L + r is 0, the size is L (residue 0 all the same).
inline std::vector<std::size_t> residue_sizes(const std::vector<std::size_t>& widths,
                                              const std::vector<std::size_t>& bases) {
    if (bases.empty()) throw std::invalid_argument("residue_sizes: no bases");
    const std::size_t l = residue_period(widths);
    std::vector<std::size_t> sizes;
    sizes.reserve(l);
    for (std::size_t r = 0; r < l; ++r) {
        const std::size_t n = bases[r % bases.size()] * l + r;
        sizes.push_back(n == 0 ? l : n);
    }
    return sizes;
}

/// @brief Sizes at the edges of whole chunks: m * 2^j - 3, - 2, - 1 and + 1 for every j from @p lo_log2 to
/// @p hi_log2 and m = @p multiple.
///
/// A kernel that splits its input into chunks of a power of two (a block's share, a pass of a grid-stride
/// loop, a persistent block's step) counts its whole chunks from n; a count rounded the wrong way reads 1
/// to 3 elements past the end, or drops the last one, only when n is that close to a multiple of its
/// chunk. The residue sizes reach every remainder of widths up to 64, not of chunks of thousands, and sizes
/// drawn at random meet those remainders rarely; these meet them for every power-of-two chunk in the range,
/// whichever the kernel chose, with @p multiple whole chunks so that several blocks share the input.
inline std::vector<std::size_t> chunk_edge_sizes(unsigned lo_log2, unsigned hi_log2, std::size_t multiple) {
    if (lo_log2 < 2 || hi_log2 < lo_log2 || hi_log2 > 40 || multiple == 0)
        throw std::invalid_argument("chunk_edge_sizes: chunks of 2^2 to 2^40, at least one");
    std::vector<std::size_t> sizes;
    for (unsigned j = lo_log2; j <= hi_log2; ++j) {
        const std::size_t whole = multiple << j;
        for (const std::size_t n : {whole - 3, whole - 2, whole - 1, whole + 1}) sizes.push_back(n);
    }
    return sizes;
}

/// @brief @p edge with @p extra merged in, sorted and without repeats, except that @p edge's last size stays
/// last: checks often run their last size twice, and size it their buffers by it.
inline std::vector<std::size_t> with_residues(std::vector<std::size_t> edge, const std::vector<std::size_t>& extra) {
    if (edge.empty()) return extra;
    const std::size_t last = edge.back();
    edge.pop_back();
    edge.insert(edge.end(), extra.begin(), extra.end());
    std::sort(edge.begin(), edge.end());
    edge.erase(std::unique(edge.begin(), edge.end()), edge.end());
    edge.erase(std::remove(edge.begin(), edge.end(), last), edge.end());
    edge.push_back(last);
    return edge;
}

/// @brief The exact sizes of a check over a 1-D input: @p edge with residue_sizes(@p widths, @p bases) and the
/// sizes at the edges of whole chunks of 2^7 to 2^16 elements, three chunks each (chunk_edge_sizes(7, 16,
/// 3)), merged in by with_residues(): every remainder a vector loop of those widths leaves, and every
/// whole-chunk count rounded the wrong way, with @p edge's last size still last.
inline std::vector<std::size_t> exact_sizes_1d(std::vector<std::size_t> edge, const std::vector<std::size_t>& widths,
                                               const std::vector<std::size_t>& bases) {
    std::vector<std::size_t> extra = residue_sizes(widths, bases);
    const std::vector<std::size_t> chunks = chunk_edge_sizes(7, 16, 3);
    extra.insert(extra.end(), chunks.begin(), chunks.end());
    return with_residues(std::move(edge), extra);
}

/// @brief Shapes of D dimensions in which every dimension sees every residue class of its widths, with
/// S = the largest period shapes, not the full product of the periods.
///
/// Each dimension's period must be a power of two (the widths that matter here are: 2, 4, 8, ..., 64).
/// Shape i (0 <= i < S = 2^k) gives dimension d the residue rotate(i, d * k / D) mod L_d: its k bits
/// rotated right, a permutation of 0 .. S - 1, so each dimension alone runs through every residue. And
/// the dimensions take their low bits from different bits of i: for D = 2 and S = 64, every pair of
/// residues mod 8 occurs (an odd number of rows beside an even width, a multiple of 32 beside a
/// ragged side), which one shift of the same index (r, r + c) could never give.
/// @param widths per dimension, the widths that matter for it
/// @param bases per dimension, multiples of its period taken in turn (as in residue_sizes())
template <std::size_t D>
std::vector<std::array<std::size_t, D>> residue_shapes(const std::array<std::vector<std::size_t>, D>& widths,
                                                       const std::array<std::vector<std::size_t>, D>& bases) {
    static_assert(D >= 1, "at least one dimension");
    std::array<std::size_t, D> period{};
    std::size_t s = 1;
    for (std::size_t d = 0; d < D; ++d) {
        period[d] = residue_period(widths[d]);
        if ((period[d] & (period[d] - 1)) != 0)
            throw std::invalid_argument("residue_shapes: a period that is not a power of two");
        if (bases[d].empty()) throw std::invalid_argument("residue_shapes: no bases");
        s = std::max(s, period[d]);
    }
    int k = 0;
    while ((std::size_t(1) << k) < s) ++k;
    auto rotate = [k](std::size_t i, int by) {
        if (k == 0 || by % k == 0) return i;
        by %= k;
        const std::size_t mask = (std::size_t(1) << k) - 1;
        return ((i >> by) | (i << (k - by))) & mask;
    };
    std::vector<std::array<std::size_t, D>> shapes;
    shapes.reserve(s);
    for (std::size_t i = 0; i < s; ++i) {
        std::array<std::size_t, D> shape{};
        for (std::size_t d = 0; d < D; ++d) {
            const std::size_t r = rotate(i, int(d) * k / int(D)) % period[d];
            const std::size_t n = bases[d][i % bases[d].size()] * period[d] + r;
            shape[d] = n == 0 ? period[d] : n;
        }
        shapes.push_back(shape);
    }
    return shapes;
}

}  // namespace grading
