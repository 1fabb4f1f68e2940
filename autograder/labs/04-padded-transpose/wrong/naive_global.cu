// Known-wrong Lab 04: the naive transpose, straight from global memory, one element a thread.
// Correct at every size, but no shared memory, so its stores are 32 floats `rows` apart: the lab
// is about the shared-memory tile. Expected: technique_not_used.
#include "transpose.cuh"

#include "cuda_check.hpp"

#include <cstddef>

namespace lab04 {

__global__ void transpose_tile_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
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
