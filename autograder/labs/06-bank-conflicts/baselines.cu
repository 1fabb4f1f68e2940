// Lab 06 baselines: the grader's strided-load kernel (see baselines.cuh). It is the reference
// design with a 1024-word array indexed modulo its size, so that strides up to 128 fit in 4 KiB
// (floats) or 8 KiB (doubles): the mystery strides the student's detector must recognise.
#include "baselines.cuh"

#include "cuda_check.hpp"

#include <stdexcept>

namespace lab06::baseline {

namespace {
constexpr int kThreads = 256;
constexpr int kWords = 1024;      // a power of two and a multiple of 32: `& (kWords - 1)` keeps the bank
// ~0.6 ms at stride 1 (floats) on an H100. The detector's calls of the mystery and known kernels cross
// the process boundary (interface.cpp), which adds tens of microseconds to each, and more, unevenly, when
// other gradings keep the machine's CPUs busy: the kernel is long enough that the conflict, not that, sets
// the time. A quarter of this (1024) let the reference detector take a 1-way mystery for 2 ways once on an
// H200 beside another grading (2026-12-02): a 1-way call then needs some 200 us of delay, not 50, to
// look like 2 ways.
constexpr int kIterations = 4096;

template <class Word>
__global__ void strided_load_kernel(int stride, float* __restrict__ sink) {
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const int first = (threadIdx.x % 32) * stride;
    // Wrapping modulo kWords keeps each word's bank; two lanes would read the same word (a broadcast,
    // not a conflict) only if 1024 divided (l - l') * stride, which strides of power-of-two part <= 32
    // never reach.
    const volatile Word* p0 = words + ((first + 0 * 32) & (kWords - 1));
    const volatile Word* p1 = words + ((first + 1 * 32) & (kWords - 1));
    const volatile Word* p2 = words + ((first + 2 * 32) & (kWords - 1));
    const volatile Word* p3 = words + ((first + 3 * 32) & (kWords - 1));
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < kIterations; ++it) {
        a0 += *p0;
        a1 += *p1;
        a2 += *p2;
        a3 += *p3;
    }
    const Word total = (a0 + a1) + (a2 + a3);
    if (total < Word(0)) *sink = static_cast<float>(total);  // never: all words are >= 0
}
}  // namespace

void strided_loads(int stride, int word_bytes, float* sink) {
    if (stride < 1 || stride > kMaxStride || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("run_known(stride) takes strides 1 to 128 (word_bytes 4 or 8)");
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kThreads>>>(stride, sink);
    else
        strided_load_kernel<float><<<blocks, kThreads>>>(stride, sink);
    CUDA_CHECK_LAUNCH();
}

}  // namespace lab06::baseline
