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
// The basic tier: one output per thread, so a block covers kBlockX x kBlockY outputs. (`inline`: a
// value your kernel does not use draws no compiler warning.)
inline constexpr int kBlockX = 32;        // threads a block along x: one warp spans one row of the tile
inline constexpr int kBlockY = 8;         // threads a block along y
inline constexpr int kRowsPerThread = 1;  // outputs each thread computes, one above the other (top tier: 8)
// END STUDENT REGION
static_assert(kBlockX * kBlockY <= 1024 && kRowsPerThread >= 1,
              "a block has at most 1024 threads, and each thread computes at least one output");

// One block computes a kBlockX x (kBlockY * kRowsPerThread) tile of the output from a tile of the
// input that is 2R = K - 1 pixels wider and taller: the halo.
template <int K>
__global__ void __launch_bounds__(kBlockX * kBlockY)
    halo_convolution_kernel(const float* __restrict__ in, float* __restrict__ out, int width, int height) {
    // BEGIN STUDENT REGION halo_convolution_kernel
    // TODO 1 (~7 lines): the tile. With R = K / 2 (a constexpr int), it is kTileW = kBlockX + 2 * R
    //        columns by kTileH = kBlockY * kRowsPerThread + 2 * R rows; declare
    //        `__shared__ float tile[kTileH][kTileW];`. tile[0][0] holds image pixel (x0, y0), where
    //        x0 = blockIdx.x * kBlockX - R and y0 = blockIdx.y * (kBlockY * kRowsPerThread) - R.
    //        Cast blockIdx to int first: blockIdx.x * kBlockX - R is unsigned, and wraps at block 0.
    // TODO 2 (~9 lines): load the tile and its halo cooperatively. With tid = threadIdx.y * kBlockX +
    //        threadIdx.x, thread tid takes tile elements e = tid, tid + kBlockX * kBlockY, ... while
    //        e < kTileW * kTileH: element e is tile[e / kTileW][e % kTileW], which is image pixel
    //        gx = x0 + e % kTileW, gy = y0 + e / kTileW. Store in[gy * width + gx] there, or 0.0f when
    //        (gx, gy) lies outside the image: tiles at the border have halos that hang over the edge.
    // TODO 3 (1 line): a barrier, so that the whole tile is in shared memory before anyone reads it.
    // TODO 4 (~8 lines): each thread computes its output pixel x = x0 + R + threadIdx.x,
    //        y = y0 + R + threadIdx.y from shared memory only: the sum over i, j in [0, K) of
    //        c_weights[i * K + j] * tile[threadIdx.y + i][threadIdx.x + j]. Store it to
    //        out[y * width + x] only when x < width and y < height (the last tiles overhang the image).
    //
    // Top tier (the speed checks need it; see the handout): set kRowsPerThread to 8 and let each
    // thread compute the column of outputs ty0 .. ty0 + 7 (ty0 = threadIdx.y * kRowsPerThread),
    // reading each tile row it needs from shared memory once, into K registers, and adding those
    // into every output that uses that row. Load the tile with a fixed number of rounds
    // (#pragma unroll): all of a thread's loads first, into registers, then all its stores.
    // END STUDENT REGION
}

template <int K>
void launch_halo_convolution(const float* in, float* out, int width, int height) {
    // BEGIN STUDENT REGION launch
    // TODO 5 (~4 lines): launch halo_convolution_kernel<K> with blocks of kBlockX x kBlockY threads
    //        and a grid that covers the whole image: course::ceil_div(width, kBlockX) blocks along x,
    //        course::ceil_div(height, kBlockY * kRowsPerThread) along y (dim3 takes unsigned).
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

const void* graded_kernel() { return reinterpret_cast<const void*>(&halo_convolution_kernel<7>); }

}  // namespace lab05
