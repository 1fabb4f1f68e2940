/// @file baselines.cuh
/// @brief What Lab 04's speed is measured against, in the same run: a naive transpose and a device copy.
#pragma once

#include <cstddef>

/// @brief Lab 04 baselines.
namespace lab04::baseline {

/// @brief The textbook first transpose, `out[c * rows + r] = in[r * cols + c]` straight from global
/// memory, 32 x 8 threads a block moving a 32 x 32 tile (four elements a thread). Its reads are
/// coalesced, its writes are not (a warp's 32 stores land `rows` floats apart). Correct at every
/// size the lab allows; also the reference output that the speed checks compare the student's with.
void naive_transpose(const float* d_in, float* d_out, int rows, int cols);

/// @brief cudaMemcpyAsync of @p n floats device to device on the default stream: the copy limit a
/// transpose, which moves the same bytes, can approach but not beat.
void device_copy(const float* d_in, float* d_out, std::size_t n);

}  // namespace lab04::baseline
