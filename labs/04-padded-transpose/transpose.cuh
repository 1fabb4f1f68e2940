/// @file transpose.cuh
/// @brief Lab 04 interface: out-of-place matrix transpose. The starter and the solution implement it.
#pragma once

/// @brief Lab 04: matrix transpose through a padded shared-memory tile.
namespace lab04 {

/// @brief Side of the square tile one block moves: kTile x kTile elements.
inline constexpr int kTile = 32;

/// @brief Rows of threads in a block: the block is kTile x kBlockRows threads, and each thread
/// moves kTile / kBlockRows elements of the tile.
inline constexpr int kBlockRows = 8;

/// @brief Writes `d_out = transpose(d_in)` on the default stream: `d_out[c * rows + r] = d_in[r * cols + c]`.
/// @param d_in  device array, the rows x cols input in row-major order; 256-byte aligned, as cudaMalloc returns
/// @param d_out device array of rows * cols floats, the cols x rows output in row-major order; at least 16-byte
///              aligned (so `float2` and `float4` stores at even and multiple-of-4 indices are aligned), not
///              always 256-byte aligned (the grader's outputs follow a guard zone); it must not overlap @p d_in,
///              and its previous contents are ignored
/// @param rows  rows of the input, 1 to 2^20
/// @param cols  columns of the input, 1 to 2^20
void transpose(const float* d_in, float* d_out, int rows, int cols);

/// @brief The kernel the grader inspects for its use of shared memory (transpose_tile_kernel).
const void* graded_kernel();

}  // namespace lab04
