/// @file hints.hpp
/// @brief Turns the pattern of which input sizes failed into a one-line hint at the likely cause.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grading {

/// @brief Whether a check passed at one input size.
struct SizeOutcome {
    std::size_t n;  ///< input size
    bool ok;        ///< the result was right at this size
};

/// @brief A hint from the sizes that failed, or "" when the pattern says nothing specific.
/// @param outcomes one entry per size tried
/// @param block elements one block covers in the lab's basic scheme (e.g. 256)
inline std::string size_pattern_hint(const std::vector<SizeOutcome>& outcomes, std::size_t block) {
    bool any_fail = false, any_pass = false;
    bool fails_only_off_multiple = true;   // every failing n is not a multiple of block
    bool a_multiple_passes = false;        // some n >= block that is a multiple of block passes
    bool fails_only_multi_block = true;    // every failing n > block
    bool single_block_passes = false;      // some n <= block passes
    bool multi_block_passes = false;       // some n > block passes
    std::size_t smallest_fail = static_cast<std::size_t>(-1), largest_pass = 0;
    for (const auto& o : outcomes) {
        if (o.ok) {
            any_pass = true;
            if (o.n >= block && o.n % block == 0) a_multiple_passes = true;
            if (o.n <= block) single_block_passes = true;
            else multi_block_passes = true;
            largest_pass = o.n > largest_pass ? o.n : largest_pass;
        } else {
            any_fail = true;
            if (o.n % block == 0) fails_only_off_multiple = false;
            if (o.n <= block) fails_only_multi_block = false;
            smallest_fail = o.n < smallest_fail ? o.n : smallest_fail;
        }
    }
    if (!any_fail || !any_pass) return "";
    const std::string b = std::to_string(block);
    if (fails_only_off_multiple && a_multiple_passes)
        return "wrong only when n is not a multiple of the block size (" + b +
               "): check the tail — the last block's elements past the last full block";
    if (fails_only_multi_block && single_block_passes && !multi_block_passes)
        return "right when one block covers the input, wrong with several: check how the blocks' partial "
               "results are combined (each block's index offset, the finish across blocks)";
    if (smallest_fail > largest_pass)
        return "right up to n = " + std::to_string(largest_pass) + ", wrong from n = " + std::to_string(smallest_fail) +
               ": check for index overflow (use size_t) and the grid-size limit";
    return "";
}

}  // namespace grading
