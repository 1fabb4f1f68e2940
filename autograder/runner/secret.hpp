/// @file secret.hpp
/// @brief The instructor's secret (grade --secret-file): what a lab program is given of it. The secret
/// never enters a lab's process; each run gets only a value keyed by the secret and the run's seed
/// (SipHash-2-4, a keyed pseudo-random function), so what a lab can read or infer in one run (its
/// inputs, its hidden sizes, even its own memory) says nothing about another run's, nor about the secret.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace grading {

/// @brief SipHash-2-4 of @p message under the 128-bit key (@p k0, @p k1).
std::uint64_t siphash24(std::uint64_t k0, std::uint64_t k1, std::string_view message);

/// @brief The value a run with seed @p seed gets of the secret @p secret_text: SipHash-2-4 of the seed,
/// keyed by two SipHash-2-4 digests of the text.
std::uint64_t secret_for_run(const std::string& secret_text, std::uint64_t seed);

/// @brief The line the lab program reads after the channel's key: "secret <16 hex digits>\n".
std::string secret_line(std::uint64_t value);

}  // namespace grading
