// Cheat, Lab 04 (a whole submission: wrong/header_macro/ holds this file and transpose.cuh).
// This file is the starter, unchanged (its regions are empty); the cheat is in transpose.cuh, which the
// grader's checks include: macros there would rewrite the checks (see the header).
// Why it fails now: the checks and the lab are compiled against the course's transpose.cuh, never the
// submission's (a note says it differs), so the starter is graded as it is.
// Expected: wrong_result (the starter's class).
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
    // TODO 1 (1 line): declare the tile, `__shared__ float tile[kTile][kTile];`. (Once your transpose
    //        is correct, the speed checks will say it is too slow: come back here, read the handout's
    //        "Bank conflicts" section, and give the tile one padding column, [kTile][kTile + 1].)
    // TODO 2 (~6 lines): load the tile. This thread reads input column col = blockIdx.x * kTile +
    //        threadIdx.x, rows blockIdx.y * kTile + threadIdx.y + j for j = 0, kBlockRows, 2 * kBlockRows,
    //        ... below kTile, and stores each in tile[threadIdx.y + j][threadIdx.x]. Skip elements
    //        outside the matrix (row >= rows or col >= cols): edge tiles are partial. Index `in` with
    //        std::size_t(row) * cols + col, so that large matrices do not overflow int.
    // TODO 3 (1 line): a barrier: each warp wrote 4 rows of the tile, but is about to read all 32.
    // TODO 4 (~7 lines): store the tile's columns as rows of out. The output tile swaps the block
    //        indices: out_row = blockIdx.x * kTile + threadIdx.y + j, out_col = blockIdx.y * kTile +
    //        threadIdx.x. out is cols x rows, so out_row < cols and out_col < rows bound it, and its
    //        row stride is rows: out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j].
    // END STUDENT REGION
}

void transpose(const float* in, float* out, int rows, int cols) {
    // BEGIN STUDENT REGION launch
    // TODO 5 (~4 lines): launch transpose_tile_kernel with kTile x kBlockRows threads a block (a dim3)
    //        and one block per tile: course::ceil_div(cols, kTile) blocks along x (the input's columns),
    //        course::ceil_div(rows, kTile) along y (its rows).
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&transpose_tile_kernel); }

}  // namespace lab04
