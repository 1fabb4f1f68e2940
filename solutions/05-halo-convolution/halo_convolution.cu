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
// Top tier: each thread computes a column of 8 outputs, so one block covers 32 x 64 outputs and
// the halo (2R rows and columns) is a small fraction of what it loads.
constexpr int kBlockX = 32;        // threads a block along x: one warp spans one row of the tile
constexpr int kBlockY = 8;         // threads a block along y
constexpr int kRowsPerThread = 8;  // outputs each thread computes, one above the other
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
    constexpr int kOutRows = kBlockY * kRowsPerThread;  // output rows one block covers
    constexpr int kTileW = kBlockX + 2 * R;
    constexpr int kTileH = kOutRows + 2 * R;
    constexpr int kThreads = kBlockX * kBlockY;
    constexpr int kLoads = (kTileW * kTileH + kThreads - 1) / kThreads;  // tile elements per thread
    __shared__ float tile[kTileH][kTileW];  // (kTileH, kTileW)

    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R;   // image column of tile[.][0]
    const int y0 = static_cast<int>(blockIdx.y) * kOutRows - R;  // image row of tile[0][.]
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);

    // Loads first, stores after: a thread's kLoads loads are independent and all in flight at
    // once, which is what keeps the memory system busy. Consecutive threads take consecutive tile
    // elements, so a warp reads contiguous row segments (coalesced) and writes consecutive shared
    // words (no bank conflicts).
    float staged[kLoads];  // this thread's share of the tile, in registers until every load is issued
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        const int gy = y0 + e / kTileW, gx = x0 + e % kTileW;
        // One unsigned comparison per axis also rejects negative coordinates.
        const bool inside = e < kTileW * kTileH && static_cast<unsigned>(gx) < static_cast<unsigned>(width) &&
                            static_cast<unsigned>(gy) < static_cast<unsigned>(height);
        // Branch-free: a pixel outside the image loads the always-valid in[0] and is replaced by 0
        // (the halo past the image edge), so no branch separates one load from the next.
        const float v = in[inside ? gy * width + gx : 0];
        staged[k] = inside ? v : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) tile[e / kTileW][e % kTileW] = staged[k];
    }
    __syncthreads();  // the whole tile, halo included, is in shared memory before anyone reads it

    // Register reuse: this thread's outputs are rows ty0 .. ty0 + kRowsPerThread - 1 of the block's
    // output, and they read tile rows ty0 .. ty0 + kRowsPerThread + 2R - 1. Each of those rows is read
    // from shared memory once, K values into registers, and added into every output it touches:
    // (kRowsPerThread + 2R) * K shared loads instead of kRowsPerThread * K * K.
    const int ty0 = static_cast<int>(threadIdx.y) * kRowsPerThread;
    float acc[kRowsPerThread];
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int row = 0; row < kRowsPerThread + 2 * R; ++row) {
        float v[K];
#pragma unroll
        for (int j = 0; j < K; ++j) v[j] = tile[ty0 + row][threadIdx.x + j];
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p) {
            const int i = row - p;  // the filter row that meets this tile row in output p (a constant)
            if (i >= 0 && i < K) {
#pragma unroll
                for (int j = 0; j < K; ++j) acc[p] = fmaf(c_weights[i * K + j], v[j], acc[p]);
            }
        }
    }

    const int x = x0 + R + static_cast<int>(threadIdx.x);
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) {
        const int y = y0 + R + ty0 + p;
        if (x < width && y < height) out[y * width + x] = acc[p];  // the last tiles overhang the image
    }
    // END STUDENT REGION
}

template <int K>
void launch_halo_convolution(const float* in, float* out, int width, int height) {
    // BEGIN STUDENT REGION launch
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY * kRowsPerThread)));
    halo_convolution_kernel<K><<<grid, block>>>(in, out, width, height);
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
