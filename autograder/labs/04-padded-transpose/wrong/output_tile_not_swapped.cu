// Known-wrong Lab 04: the store turns each tile around but puts it back at the input tile's
// position: block (bx, by) writes output tile (by, bx) instead of (bx, by). Every store is inside
// the output (it is bounded by the output's shape), but with more than one tile, tiles land in the
// wrong place and some output tiles are never written. Expected: wrong_result, deterministically.
#include "transpose.cuh"

#include "cuda_check.hpp"

#include <cstddef>

namespace lab04 {

__global__ void transpose_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.x * kTile + threadIdx.x;   // BUG: should be blockIdx.y * kTile + threadIdx.x
    const int out_row0 = blockIdx.y * kTile + threadIdx.y;  // BUG: should be blockIdx.x * kTile + threadIdx.y
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < rows)
            out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void transpose(const float* in, float* out, int rows, int cols) {
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&transpose_tile_kernel); }

}  // namespace lab04
