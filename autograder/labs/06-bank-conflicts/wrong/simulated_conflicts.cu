// Known-wrong Lab 06: the "microbenchmark" never touches shared memory. It asks the model how many
// ways the stride has and spins that many times as long on register arithmetic, so its curve is the
// model's, exactly, and passes every timing check. Expected: technique_not_used.
#include "reference_parts.cuh"

namespace lab06 {

int conflict_ways(int stride, int word_bytes) { return reference::conflict_ways(stride, word_bytes); }

template <class Word>
__global__ void strided_load_kernel(int ways, float* __restrict__ sink) {
    constexpr int kSpinPerWay = 1024;  // ~0.04 ms a way on an H100
    float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    for (int it = 0; it < ways * kSpinPerWay; ++it) {  // BUG: simulates the conflict instead of measuring it
        x0 = fmaf(x0, 0.999f, 0.5f);
        x1 = fmaf(x1, 0.999f, 0.5f);
        x2 = fmaf(x2, 0.999f, 0.5f);
        x3 = fmaf(x3, 0.999f, 0.5f);
    }
    const float total = (x0 + x1) + (x2 + x3);
    if (total < 0.0f) *sink = total;  // never: the values stay positive
}

void strided_loads(int stride, int word_bytes, float* sink) {
    reference::check_arguments(stride, word_bytes);
    const int ways = reference::conflict_ways(stride, word_bytes);
    if (word_bytes == 8)
        strided_load_kernel<double><<<reference::throughput_blocks(), kBlockSize>>>(ways, sink);
    else
        strided_load_kernel<float><<<reference::throughput_blocks(), kBlockSize>>>(ways, sink);
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
