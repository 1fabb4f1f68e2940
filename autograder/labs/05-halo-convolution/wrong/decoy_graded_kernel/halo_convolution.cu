// Cheat, Lab 05 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold a correct
// convolution that reads every tap straight from global memory (as in global_memory_only.cu);
// outside the regions, the file adds a decoy kernel with a shared tile and changes graded_kernel()
// to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real halo_convolution_kernel<7>, which declares no shared memory. It is correct, so
// the technique check is the first to fail (speed checks may fail too, a lower class).
// Expected: technique_not_used.
//
// Lab 05 — Convolution with a halo tile in shared memory.
//
// Teaches: staging a tile of the image plus its halo (the R-pixel border the filter reaches past
// the tile) in __shared__ memory, with every thread of the block loading a share; zero-filling
// what lies outside the image; one barrier between loading and reading; then computing from
// shared memory, so each input pixel comes from global memory about once instead of K * K times.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab05   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "halo_convolution.cuh"

#include "cuda_check.hpp"

#include <stdexcept>

namespace lab05 {

// The filter, row by row: w[i][j] is c_weights[i * K + j]. All threads of a warp read the same
// weight at the same moment, and constant memory serves that as a single broadcast.
__constant__ float c_weights[kMaxFilterSize * kMaxFilterSize];

void set_filter(const float* weights, int K) {
    if (K != 3 && K != 5 && K != 7) throw std::invalid_argument("set_filter: K must be 3, 5 or 7");
    CUDA_CHECK(cudaMemcpyToSymbol(c_weights, weights, sizeof(float) * K * K));
}

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // not used by this variant: one output per thread
// END STUDENT REGION
static_assert(kBlockX * kBlockY <= 1024 && kRowsPerThread >= 1,
              "a block has at most 1024 threads, and each thread computes at least one output");

// One block computes a kBlockX x (kBlockY * kRowsPerThread) tile of the output from a tile of the
// input that is 2R = K - 1 pixels wider and taller: the halo.
template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    halo_convolution_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    // BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2;
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const int gx = x + j - R, gy = y + i - R;
            // BUG (technique): every tap is read straight from global memory, no shared tile
            if (gx >= 0 && gx < width && gy >= 0 && gy < height) acc += c_weights[i * K + j] * in[gy * width + gx];
        }
    if (x < width && y < height) out[y * width + x] = acc;
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void halo_convolution_kernel_for_inspection(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    __shared__ float tile[kBlockY + 6][kBlockX + 6];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * width + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * width + threadIdx.x] = tile[threadIdx.y + 3][threadIdx.x + 3];
}

template <int K>
void launch_halo_convolution(const float* in, float* out, int width, int height) {
    // BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
    // END STUDENT REGION
}

void convolve(const float* in, float* out, int width, int height, int K) {
    if (width < 1 || height < 1) throw std::invalid_argument("convolve: the image must be at least 1 x 1");
    switch (K) {
    case 3: launch_halo_convolution<3>(in, out, width, height); break;
    case 5: launch_halo_convolution<5>(in, out, width, height); break;
    case 7: launch_halo_convolution<7>(in, out, width, height); break;
    default: throw std::invalid_argument("convolve: K must be 3, 5 or 7");
    }
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&halo_convolution_kernel_for_inspection); }  // CHEAT

}  // namespace lab05
