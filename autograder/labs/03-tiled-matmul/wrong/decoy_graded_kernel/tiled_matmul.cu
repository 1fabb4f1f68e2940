// Cheat, Lab 03 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold the naive
// kernel (one thread per element of C, every operand from global memory: correct, as in
// naive_global_memory.cu); outside the regions, the file adds a decoy kernel with 16 x 16 shared
// tiles and changes graded_kernel() to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real tiled_matmul_kernel, which declares no shared memory. It is correct, so the
// technique check is the first to fail (it also fails a speed check, a lower class).
// Expected: technique_not_used.
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
constexpr int kEdge = 16;                // edge of the square blocks of C
// No launch bound, as the original kernel had none: for __launch_bounds__(0, 0) nvcc emits no
// .maxntid / .minnctapersm, so the kernel compiles to the same machine code as the original.
constexpr int kThreads = 0;
constexpr int kMinBlocksPerSm = 0;
// END STUDENT REGION

// One block computes one tile of C. kThreads and kMinBlocksPerSm (above) tell the compiler the block
// size it will be launched with, so that it can budget registers per thread.
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    tiled_matmul_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                        int K) {
    // BEGIN STUDENT REGION tiled_matmul_kernel
    const int row = blockIdx.y * kEdge + threadIdx.y, col = blockIdx.x * kEdge + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    // BUG: every operand is read from global memory: no __shared__ tiles
    for (int k = 0; k < K; ++k) acc = fmaf(A[std::size_t(row) * K + k], B[std::size_t(k) * N + col], acc);
    C[std::size_t(row) * N + col] = acc;
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void tiled_matmul_kernel_for_inspection(const float* __restrict__ A, const float* __restrict__ B,
                                                   float* __restrict__ C, int M, int N, int K) {
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    As[threadIdx.y][threadIdx.x] = A[threadIdx.y * K + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[threadIdx.y * N + threadIdx.x];
    __syncthreads();
    C[threadIdx.y * N + threadIdx.x] = As[threadIdx.y][0] * Bs[0][threadIdx.x];
}

void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    // BEGIN STUDENT REGION launch
    const dim3 block(kEdge, kEdge);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kEdge)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kEdge)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&tiled_matmul_kernel_for_inspection); }  // CHEAT

}  // namespace lab03
