// Cheat, Lab 03 (a whole submission: wrong/edit_outside_regions/ holds the student's whole file).
// The regions are left as the starter has them (its 16 x 16 configuration, an empty kernel and an
// empty launch), and the work is done outside them: a complete tiled kernel added above
// tiled_matmul, and its launch added after the launch region, in lines the starter says not to edit.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the added
// kernel and launch lie outside the regions and are dropped (a note says so), leaving the starter's
// empty kernel, which is never even launched: C is never written.
// Expected: wrong_result (the starter's class).
//
// Lab 03 — Tiled matrix multiplication in shared memory.
//
// Teaches: reusing every element fetched from global memory many times by staging tiles of A and B
// in __shared__ memory; the two barriers of the tile loop and why each is needed; partial tiles at
// the edges (load zeros, store nothing); then the progression towards cuBLAS: a bank-conflict-free
// layout, double buffering and register blocking.
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
// the most threads a block may have) and may add __device__ helper functions here.
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
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

// CHEAT (outside the regions): the basic tiled kernel, written where the grader does not look for it.
__global__ void tiled_matmul_outside(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                     int M, int N, int K) {
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
}

void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    // BEGIN STUDENT REGION launch
    // TODO 5 (~3 lines): launch tiled_matmul_kernel with a dim3 block of kTile x kTile threads and a
    //        dim3 grid of ceil(N / kTile) x ceil(M / kTile) blocks (x across the columns of C, y down
    //        its rows; use course::ceil_div, so that partial tiles get a block too).
    //
    // Stretch tiers (the speed checks need the last one; see the handout): a bank-conflict-free
    // layout (A transposed in shared memory, each row padded by a few floats), double buffering (two
    // stages of each tile: the next one loads while this one is used), and register blocking (256
    // threads compute a 128 x 128 tile of C, each thread an 8 x 8 block of it from 8 values of A and
    // 8 of B per step along K, with float4 loads and stores).
    // END STUDENT REGION
    tiled_matmul_outside<<<dim3(static_cast<unsigned>(course::ceil_div(N, kTile)), static_cast<unsigned>(course::ceil_div(M, kTile))),
                           dim3(kTile, kTile)>>>(A, B, C, M, N, K);  // CHEAT: the launch, outside the region
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&tiled_matmul_kernel); }

}  // namespace lab03
