// Cheat, Lab 02 (a whole submission: wrong/decoy_graded_kernel/ holds the student's whole file).
// The shared-memory check inspects whatever graded_kernel() returns. The regions hold a fast, correct
// maximum with no shared memory at all (registers and warp shuffles, as in no_shared_memory.cu, with
// the reference atomic_max_float); outside the regions, the file adds a decoy kernel that declares a
// __shared__ array and changes graded_kernel() to return the decoy.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the decoy and
// the changed graded_kernel() lie outside the regions, are dropped (a note says so), and the check
// inspects the real block_max_kernel, which declares no shared memory. Correct and fast otherwise.
// Expected: technique_not_used.
//
// Lab 02 — Max reduction in shared memory.
//
// Teaches: the identity of a reduction (-INFINITY for max, never 0), a stated NaN policy carried
// through every step, and an atomic maximum for floats built from the integer atomics CUDA has.
// Check it (from the repository root):  make -C build -j"$(nproc)" check-lab02   Handout: README.md beside this file.
//
// Only edit between BEGIN/END STUDENT REGION: the grader builds your lab from the course's copy of this
// file with your regions in it, so edits elsewhere have no effect (docs: "How grading works").
#include "max_reduce.cuh"

#include "cuda_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace lab02 {

// The lab's NaN policy in one function: the larger of a and b, and a NaN from either side wins.
// `a > b` is false when either is NaN, so a NaN in b falls through to `: b`; a NaN in a is caught
// by isnan(a). (fmaxf would drop the NaN instead.) Use it for every comparison you make.
__device__ __forceinline__ float max_or_nan(float a, float b) { return (a > b || isnan(a)) ? a : b; }

// Combines value into *address atomically: afterwards *address holds max_or_nan(old, value).
// CUDA has atomicMax for int and unsigned but not for float.
__device__ void atomic_max_float(float* address, float value) {
    // BEGIN STUDENT REGION atomic_max_float
    // A float's bits, read as an int, order like the floats for sign bit 0 (+0.0 up to +INFINITY,
    // then the NaN 0x7fffffff), and every such int is >= 0 > any negative float's int. Read as an
    // unsigned, negative floats order backwards (-0.0 is 0x80000000, -INFINITY 0xff800000) and all
    // lie above the non-negative ones. So each branch computes the float maximum exactly, whatever
    // *address holds; +0.0 beats -0.0. A NaN with its sign bit set would lose in the second
    // branch, so every NaN becomes 0x7fffffff first: the largest int, which nothing replaces.
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    if (__float_as_int(value) >= 0)
        atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
    else
        atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value));
    // END STUDENT REGION
}

// Starts *out at -INFINITY, the identity of max: max(-INFINITY, x) = x for every x, -INFINITY
// included. (0 is no identity: it would beat every input of an all-negative array.)
__global__ void set_identity_kernel(float* out) { *out = -INFINITY; }

// One block reduces its part of the input to a single maximum through shared memory;
// thread 0 then combines it into *out with atomic_max_float.
__global__ void block_max_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    // BEGIN STUDENT REGION block_max_kernel
    // BUG: no __shared__ memory: the graded technique is not used
    float m = -INFINITY;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        m = max_or_nan(m, in[i]);
    for (int offset = 16; offset > 0; offset /= 2) m = max_or_nan(m, __shfl_down_sync(0xffffffffu, m, offset));
    if (threadIdx.x % 32 == 0) atomic_max_float(out, m);
    // END STUDENT REGION
}

// CHEAT (outside the regions): what the shared-memory check gets to inspect. Never launched.
__global__ void block_max_kernel_for_inspection(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    partial[threadIdx.x] = threadIdx.x < n ? in[threadIdx.x] : -INFINITY;
    __syncthreads();
    if (threadIdx.x == 0) atomic_max_float(out, partial[0]);
}

void max_reduce(const float* in, float* out, std::size_t n) {
    // BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    const std::size_t blocks = course::ceil_div(n, kBlockSize);
    block_max_kernel<<<static_cast<unsigned>(blocks < 1056 ? blocks : 1056), kBlockSize>>>(in, out, n);
    // END STUDENT REGION
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_max_kernel_for_inspection); }  // CHEAT

}  // namespace lab02
