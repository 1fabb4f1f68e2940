// Cheat, Lab 04 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold the naive
// transpose straight from global memory (correct, as in naive_global.cu, with the reference launch);
// outside the regions, the file adds a decoy kernel with a padded 32 x 33 shared tile and changes
// graded_kernel() to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real transpose_tile_kernel, which declares no shared memory. It is correct, so the
// technique check is the first to fail (the speed checks fail too, a lower class).
// Expected: technique_not_used.
//
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
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        // BUG (technique): no shared-memory tile; the store to out is strided by `rows`
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
    }
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void transpose_tile_kernel_for_inspection(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * cols + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * rows + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
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

const void* graded_kernel() { return reinterpret_cast<const void*>(&transpose_tile_kernel_for_inspection); }  // CHEAT

}  // namespace lab04
