// Lab 03 — Tiled matrix multiplication in shared memory.
//
// Teaches: reusing every element fetched from global memory many times by staging tiles of A and B
// in __shared__ memory; the two barriers of the tile loop and why each is needed; partial tiles at
// the edges (load zeros, store nothing); then the progression towards cuBLAS: a bank-conflict-free
// layout, double buffering, register blocking and warp tiling.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab03   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "tiled_matmul.cuh"

#include "cuda_check.hpp"

#include <cstddef>
#include <cstdint>

namespace lab03 {

// BEGIN STUDENT REGION configuration
// The basic tier: blocks of kTile x kTile threads, one thread per element of C, square tiles of
// A and B in shared memory. Later tiers change these numbers (kThreads is the kernel's launch bound:
// the most threads a block may have) and may add __device__ helper functions here. (`inline`: a value
// your kernel no longer uses draws no compiler warning.)
inline constexpr int kTile = 16;                // edge of the square tiles of A, B and C
inline constexpr int kThreads = kTile * kTile;  // threads per block
inline constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// END STUDENT REGION

// One block computes one tile of C. kThreads and kMinBlocksPerSm (above) tell the compiler the block
// size it will be launched with, so that it can budget registers per thread.
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    tiled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K) {
    // BEGIN STUDENT REGION tiled_matmul_kernel
    // The basic tier: the kTile x kTile threads of a block compute one kTile x kTile tile of C;
    // thread (threadIdx.y, threadIdx.x) computes C(row, col) with
    // row = blockIdx.y * kTile + threadIdx.y and col = blockIdx.x * kTile + threadIdx.x.
    // TODO 1 (~4 lines): declare the tiles `__shared__ float As[kTile][kTile];` and `Bs` likewise,
    //        compute row and col, and start a float accumulator at 0.
    // TODO 2 (~6 lines): loop over K one tile at a time, t = 0 .. ceil(K / kTile) - 1. Each thread
    //        loads ONE element of each tile: As[ty][tx] = A(row, t * kTile + tx) and
    //        Bs[ty][tx] = B(t * kTile + ty, col), with 0 instead wherever that element lies outside
    //        A or B (the zeros make partial tiles at the edges add nothing).
    // TODO 3 (~4 lines): __syncthreads(), so that the whole tile is in shared memory before anyone
    //        reads it; add As[ty][k] * Bs[k][tx] for k = 0 .. kTile - 1 to the accumulator; then
    //        __syncthreads() again, so that no thread overwrites the tiles with the next ones while
    //        another thread is still reading these.
    // TODO 4 (~2 lines): after the loop, store the accumulator to C(row, col), only if row < M and col < N.
    // END STUDENT REGION
}

void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    // BEGIN STUDENT REGION launch
    // TODO 5 (~3 lines): launch tiled_matmul_kernel with a dim3 block of kTile x kTile threads and a
    //        dim3 grid of ceil(N / kTile) x ceil(M / kTile) blocks (x across the columns of C, y down
    //        its rows; use course::ceil_div, so that partial tiles get a block too).
    //
    // Stretch tiers, in this order (the speed checks need tier 2; see the handout): tier 2, register
    // blocking (a 1-D block of 256 threads computes a 128 x 128 tile of C, each thread an 8 x 8 block
    // of it from 8 values of A and 8 of B per step along K, with float4 loads and stores where the
    // row length is a multiple of 4 and scalar ones elsewhere); tier 3, a bank-conflict-free layout
    // (A transposed in shared memory, each row padded by 4 floats for the handout's thread mapping);
    // tier 4, double buffering (two stages of each tile: the next one loads while this one is used).
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&tiled_matmul_kernel); }

}  // namespace lab03
