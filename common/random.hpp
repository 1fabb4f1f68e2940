/// @file random.hpp
/// @brief Seeded, reproducible random data, identical on host and device.
///
/// Element i of a random array is a pure function of (seed, i): the host can
/// recompute any element the device generated, arrays of any size are filled
/// in parallel on the GPU, and re-running with the printed seed reproduces a
/// failing input exactly.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// @def COURSE_HD
/// @brief Marks a function callable from host and device code (`__host__ __device__` under nvcc,
/// nothing for the host compiler), so host and device generate identical random data.
#if defined(__CUDACC__)
#define COURSE_HD __host__ __device__
#else
#define COURSE_HD
#endif

namespace course {

/// @brief A 64-bit hash of (seed, counter): SplitMix64's finaliser applied to a Weyl sequence.
COURSE_HD inline std::uint64_t hash64(std::uint64_t seed, std::uint64_t counter) {
    std::uint64_t x = seed + (counter + 1) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// @brief Element @p i of a uniform float sequence in [lo, hi) (24 random bits).
COURSE_HD inline float uniform_at(std::uint64_t seed, std::uint64_t i, float lo, float hi) {
    const float unit = static_cast<float>(hash64(seed, i) >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    return lo + (hi - lo) * unit;
}

/// @brief Element @p i of a uniform integer sequence in [lo, hi] (inclusive), as an int.
COURSE_HD inline int integer_at(std::uint64_t seed, std::uint64_t i, int lo, int hi) {
    const auto span = static_cast<std::uint64_t>(static_cast<long long>(hi) - lo + 1);
    return lo + static_cast<int>(hash64(seed, i) % span);
}

/// @brief Derives an independent seed for one use (a check, a size) from the run's seed.
inline std::uint64_t derive_seed(std::uint64_t seed, std::string_view tag, std::uint64_t salt = 0) {
    std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a over the tag
    for (char c : tag) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
    return hash64(seed ^ h, salt);
}

/// @brief SipHash-2-4 of @p message under the 128-bit key (@p k0, @p k1): a keyed pseudo-random
/// function. Unlike hash64, whose finaliser is invertible (its output gives its input away), its outputs
/// tell nothing of the key: a grading's per-call seeds come from it (grading::seed_for), so that a kernel
/// that recovers one call's seed from the values it was given cannot predict the next call's.
std::uint64_t keyed_hash64(std::uint64_t k0, std::uint64_t k1, std::string_view message);

/// @brief Host vector of @p n uniform floats in [lo, hi).
std::vector<float> uniform_floats(std::size_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

/// @brief Host vector of @p n integer-valued floats drawn uniformly from [lo, hi].
std::vector<float> integer_floats(std::size_t n, std::uint64_t seed, int lo, int hi);

/// @brief Fills device array @p d (n floats) with the same values as uniform_floats(n, seed, lo, hi).
void fill_uniform_device(float* d, std::size_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f,
                         cudaStream_t stream = nullptr);

/// @brief Fills device array @p d (n floats) with the same values as integer_floats(n, seed, lo, hi).
void fill_integers_device(float* d, std::size_t n, std::uint64_t seed, int lo, int hi, cudaStream_t stream = nullptr);

/// @brief The seed for this run: the value of environment variable @p env_var if set, else fresh entropy.
/// The caller prints it so a run can be reproduced.
std::uint64_t seed_from_env_or_entropy(const char* env_var = "COURSE_SEED");

/// @brief @p text as a seed: a non-negative integer, decimal or 0x-hexadecimal, and nothing else;
/// nullopt otherwise ("abc", "-1", "12x", out of range).
std::optional<std::uint64_t> parse_seed(const std::string& text);

}  // namespace course
