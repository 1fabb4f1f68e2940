// Cheat, Lab 02 (a whole submission: wrong/edit_outside_regions/ holds the student's whole file).
// The regions are left as the starter has them (empty), and the work is done outside them: an atomic
// float maximum and a complete grid-stride max kernel added above max_reduce, and their launches
// added after the launch region, in lines the starter's comment says not to edit.
// Why it fails now: the graded file is the course's skeleton with this file's regions; the added
// code lies outside the regions and is dropped (a note says so), leaving the starter's empty kernel
// and launcher: *out is never written. Expected: wrong_result (the starter's class).
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
    // TODO 1 (~5 lines): combine value into *address with the integer atomics CUDA has. Two facts do
    //        it: floats with the sign bit clear (+0.0 up to +INFINITY) compare like their bits read as
    //        int (__float_as_int), and those ints are above every negative float's; negative floats
    //        compare BACKWARDS when their bits are read as unsigned (__float_as_uint). So pick atomicMax
    //        on int or atomicMin on unsigned by the sign bit. Turn any NaN into __int_as_float(0x7fffffff)
    //        first: a NaN whose sign bit is set would otherwise lose to every number.
    // END STUDENT REGION
}

// Starts *out at -INFINITY, the identity of max: max(-INFINITY, x) = x for every x, -INFINITY
// included. (0 is no identity: it would beat every input of an all-negative array.)
__global__ void set_identity_kernel(float* out) { *out = -INFINITY; }

// One block reduces its part of the input to a single maximum through shared memory;
// thread 0 then combines it into *out with atomic_max_float.
__global__ void block_max_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    // BEGIN STUDENT REGION block_max_kernel
    // TODO 2 (~3 lines): declare `__shared__ float partial[kBlockSize];`, compute this thread's global
    //        index i, and store in[i] into partial[threadIdx.x]; store -INFINITY, the identity of max,
    //        when i >= n (not 0: a 0 would beat every element of an all-negative input).
    // TODO 3 (1 line): a barrier, so every element is in shared memory before anyone reads a neighbour's.
    // TODO 4 (~5 lines): the halving loop: for stride = blockDim.x / 2 down to 1, threads with
    //        threadIdx.x < stride store max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride])
    //        into partial[threadIdx.x]. A barrier after every step — outside the `if`, so that every
    //        thread reaches it.
    // TODO 5 (~2 lines): thread 0 combines partial[0] into *out with atomic_max_float.
    // END STUDENT REGION
}

// CHEAT (outside the regions): the whole maximum, written where the grader does not look for it.
__device__ void atomic_max_float_outside(float* address, float value) {
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    if (__float_as_int(value) >= 0) atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
    else atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value));
}

__global__ void max_all_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    __shared__ float partial[kBlockSize];
    float m = -INFINITY;
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        m = max_or_nan(m, in[i]);
    partial[threadIdx.x] = m;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] = max_or_nan(partial[threadIdx.x], partial[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0) atomic_max_float_outside(out, partial[0]);
}

void max_reduce(const float* in, float* out, std::size_t n) {
    // BEGIN STUDENT REGION launch
    // TODO 6 (~4 lines): launch set_identity_kernel<<<1, 1>>>(out), so that *out starts at -INFINITY
    //        (cudaMemsetAsync to 0, as in Lab 01, would start it at 0.0: no identity for max), and check
    //        it with CUDA_CHECK_LAUNCH(). Then launch block_max_kernel with kBlockSize threads and enough
    //        blocks to cover all n elements (course::ceil_div).
    //
    // Stretch tier (the speed checks need it; see the handout): launch only a few blocks per SM,
    // let each thread take the maximum of many elements with float4 loads before the tree, and
    // finish the last 32 values with __shfl_down_sync instead of shared memory and barriers.
    // END STUDENT REGION
    set_identity_kernel<<<1, 1>>>(out);  // CHEAT: the launches, outside the region
    max_all_kernel<<<static_cast<unsigned>(std::min<std::size_t>(course::ceil_div(n, kBlockSize), 1056)), kBlockSize>>>(in, out, n);
    CUDA_CHECK_LAUNCH();
}

const void* graded_kernel() { return reinterpret_cast<const void*>(&block_max_kernel); }

}  // namespace lab02
