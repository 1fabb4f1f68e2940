/// @file scan.cuh
/// @brief Lab 08 interface: the inclusive prefix sum (scan) of an array of ints or floats. The starter and
/// the solution implement it.
#pragma once

#include <cstddef>

/// @brief Lab 08: prefix sum.
namespace lab08 {

/// @brief Threads per block of scan_tiles_kernel (its launch bound).
inline constexpr int kBlockSize = 256;

/// @brief Computes the inclusive scan `d_out[i] = d_in[0] + d_in[1] + ... + d_in[i]` for every i < n, on the
/// default stream.
///
/// The sums wrap around in two's complement: each output is the true sum modulo 2^32, read as an int (what
/// adding in `unsigned` and converting back gives). So the result is exact and unique for every input,
/// whatever order the additions are made in, and an overflow is no error.
/// @param d_in  device array of n ints (256-byte aligned, as cudaMalloc returns); read only
/// @param d_out device array of n ints (256-byte aligned), not overlapping d_in; its previous contents are
///              ignored, and nothing outside d_out[0 .. n) may be written
/// @param n     number of elements, at least 1
void inclusive_scan(const int* d_in, int* d_out, std::size_t n);

/// @brief The same for floats: `d_out[i]` is d_in[0] + ... + d_in[i] in float arithmetic, in any order of
/// additions. Different orders round differently; the result must be within the rounding bound the handout
/// states (README.md, "Rounding"). Integer-valued inputs whose magnitudes add up to less than 2^24 are
/// summed exactly in any order, so there the result must be exact.
void inclusive_scan(const float* d_in, float* d_out, std::size_t n);

/// @brief The kernel the grader inspects for its use of shared memory (scan_tiles_kernel<int>).
const void* graded_kernel();

}  // namespace lab08
