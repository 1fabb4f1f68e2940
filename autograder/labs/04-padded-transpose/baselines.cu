// Lab 04 baselines: the naive global-memory transpose and the cudaMemcpy peer (see baselines.cuh).
#include "baselines.cuh"

#include "cuda_check.hpp"

namespace lab04::baseline {

namespace {
constexpr int kTile = 32, kBlockRows = 8;

// The same block shape and tile coverage as the lab's kernel (32 x 8 threads, four elements each,
// one 32 x 32 tile a block), minus the shared memory: the one difference the speed checks weigh.
__global__ void naive_transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
    }
}
}  // namespace

void naive_transpose(const float* in, float* out, int rows, int cols) {
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    naive_transpose_kernel<<<grid, block>>>(in, out, rows, cols);
    CUDA_CHECK_LAUNCH();
}

void device_copy(const float* in, float* out, std::size_t n) {
    CUDA_CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice));
}

}  // namespace lab04::baseline
