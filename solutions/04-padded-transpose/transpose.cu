// Lab 04 — Matrix transpose through a padded shared-memory tile.
//
// Teaches: why a plain transpose cannot coalesce both its reads and its writes, how a block
// turns a 32 x 32 tile around in __shared__ memory so that both are coalesced, why reading a
// tile column hits one bank 32 times over, and how one padding column ([32][33]) removes it.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab04   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "transpose.cuh"

#include "cuda_check.hpp"

#include <cstddef>

namespace lab04 {

// One block moves one kTile x kTile tile: it reads the tile's rows from `in` (coalesced), and
// writes the tile's columns as rows of `out` (coalesced too), turning the tile around in
// shared memory. Block (bx, by) reads input tile (row by, column bx) and writes output tile
// (row bx, column by).
__global__ void transpose_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    // BEGIN STUDENT REGION transpose_tile_kernel
    // Top tier: 32 x 8 threads move a 32 x 32 tile, four elements a thread, so each thread has four
    // independent loads in flight before the barrier. The padding column makes the column reads
    // conflict-free: tile[r][c] sits in bank (r * 33 + c) % 32 = (r + c) % 32, so the 32 threads of
    // a warp reading tile[0..31][c] hit 32 different banks instead of bank c 32 times.
    __shared__ float tile[kTile][kTile + 1];  // (kTile, kTile + 1): one padding column

    const int col = blockIdx.x * kTile + threadIdx.x;  // input column this thread reads
    const int row0 = blockIdx.y * kTile + threadIdx.y;  // input row of its first element
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
    }

    // Every warp writes 4 rows of the tile but reads from all 32: wait for all of them.
    __syncthreads();

    // The output tile's origin swaps the block indices: out is cols x rows.
    const int out_col = blockIdx.y * kTile + threadIdx.x;  // an input row
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;  // an input column
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
    // END STUDENT REGION
}

void transpose(const float* in, float* out, int rows, int cols) {
    // BEGIN STUDENT REGION launch
    // One block per tile; tiles along the columns on x (up to 2^31 - 1 blocks), along the rows on y
    // (at most 65535 blocks: 2^20 rows need 32768).
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&transpose_tile_kernel); }

}  // namespace lab04
