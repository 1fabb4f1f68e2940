/// @file verify.hpp
/// @brief Checks of device data that the speed checks make after every timed call: a comparison with a
/// reference and an exact fingerprint, both on the GPU (the benchmark arrays are too large to copy to the
/// host for every call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace grading {

/// @brief The outcome of compare_on_device().
struct DeviceComparison {
    unsigned long long mismatches = 0;  ///< elements with !(|got - ref| <= atol + rtol * |ref|), NaN included
    std::size_t first = 0;              ///< the smallest mismatching index (valid when mismatches > 0)
    float got = 0.0f;                   ///< got[first]
    float expected = 0.0f;              ///< ref[first]
    /// @brief True when every element matched.
    bool ok() const { return mismatches == 0; }
    /// @brief "N of M elements differ; first: name[i] = x (expected y)", or "" when ok.
    std::string summary(const std::string& name, std::size_t n) const;
};

/// @brief Compares two device arrays of @p n floats element by element on the GPU.
DeviceComparison compare_on_device(const float* d_got, const float* d_ref, std::size_t n, float atol, float rtol = 0.0f);

/// @brief An exact fingerprint of @p bytes bytes of device memory (every byte counts, at its position):
/// equal fingerprints before and after a call show that the call left the array as it was.
std::uint64_t fingerprint_on_device(const void* d_data, std::size_t bytes);

/// @brief 32 of the @p words 32-bit words at @p d_data (the last one, and others drawn from @p seed),
/// read by a one-block kernel on the default stream and waited for; empty when @p words is 0.
std::vector<std::uint32_t> sample_words_on_device(const void* d_data, std::size_t words, std::uint64_t seed);

}  // namespace grading
