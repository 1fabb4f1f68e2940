// Known-wrong Lab 06: the kernel adds up its loads but never uses the sum, so the compiler deletes
// the loop, loads and all. Every stride then costs one empty launch: a flat curve.
// Expected: wrong_result.
#include "reference_parts.cuh"

namespace lab06 {

int conflict_ways(int stride, int word_bytes) { return reference::conflict_ways(stride, word_bytes); }

template <class Word>
__global__ void strided_load_kernel(int stride, float* __restrict__ sink) {
    constexpr int kWords = kBanks * (kMaxStride + 4);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < 512; ++it) {
        a0 += mine[0 * kBanks];
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const Word total = (a0 + a1) + (a2 + a3);
    (void)total;  // BUG: nothing is stored, so nothing above has any effect and the compiler deletes it
    (void)sink;
}

void strided_loads(int stride, int word_bytes, float* sink) {
    reference::check_arguments(stride, word_bytes);
    if (word_bytes == 8)
        strided_load_kernel<double><<<reference::throughput_blocks(), kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<reference::throughput_blocks(), kBlockSize>>>(stride, sink);
    CUDA_CHECK_LAUNCH();
}

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int)>& run_known,
                         int word_bytes) {
    return reference::detect_conflict_ways(run_mystery, run_known, word_bytes);
}

const void* graded_kernel(int word_bytes) {
    if (word_bytes == 8) return reinterpret_cast<const void*>(&strided_load_kernel<double>);
    return reinterpret_cast<const void*>(&strided_load_kernel<float>);
}

}  // namespace lab06
