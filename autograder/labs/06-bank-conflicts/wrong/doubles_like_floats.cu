// Known-wrong Lab 06: the model uses the 4-byte rule gcd(stride, 32) for 8-byte words too, missing
// that a pass of 128 bytes serves only a half-warp of 8-byte words: stride 32 of doubles is 16-way,
// not 32-way. Expected: wrong_result (the 8-byte model check only).
#include "reference_parts.cuh"

namespace lab06 {

int conflict_ways(int stride, int word_bytes) {
    if (stride < 1 || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("conflict_ways: stride must be at least 1 and word_bytes 4 or 8");
    return std::gcd(stride, 32);  // BUG: 16 lanes a pass for 8-byte words
}

void strided_loads(int stride, int word_bytes, float* sink) { reference::strided_loads(stride, word_bytes, sink); }

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int)>& run_known,
                         int word_bytes) {
    return reference::detect_conflict_ways(run_mystery, run_known, word_bytes);
}

const void* graded_kernel(int word_bytes) { return reference::graded_kernel(word_bytes); }

}  // namespace lab06
