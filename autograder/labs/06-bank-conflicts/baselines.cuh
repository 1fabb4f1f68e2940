/// @file baselines.cuh
/// @brief The grader's own strided-load kernel for Lab 06: the mystery kernels and the known-stride
/// kernels that the student's detector is run against.
#pragma once

/// @brief Lab 06 baselines.
namespace lab06::baseline {

/// @brief The largest stride strided_loads() accepts.
inline constexpr int kMaxStride = 128;

/// @brief Launches, on the default stream, many warps whose lanes each read shared word
/// `(lane * stride + k * 32) mod 1024` (k = 0..3) over and over. The array has 1024 words, so for a
/// stride whose power-of-two part is at most 32 (4-byte words) or 16 (8-byte words) all 32 lanes read
/// distinct words, and the launch shows exactly conflict_ways(stride, word_bytes) ways.
/// @param stride 1 to kMaxStride (throws std::invalid_argument otherwise)
/// @param word_bytes 4 (floats) or 8 (doubles) (throws std::invalid_argument otherwise)
/// @param d_sink device pointer to one float the kernel never writes in practice (keeps the loads alive)
void strided_loads(int stride, int word_bytes, float* d_sink);

}  // namespace lab06::baseline
