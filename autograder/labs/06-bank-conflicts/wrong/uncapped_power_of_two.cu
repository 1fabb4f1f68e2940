// Known-wrong Lab 06: the model answers with the power-of-two part of the stride (stride & -stride)
// and never caps it at the lanes of a pass, so stride 64 is called 64-way, and for 8-byte words
// stride 32 is called 32-way. Right for every stride up to 32 with 4-byte words: only the check up to
// 128 catches it. Expected: wrong_result.
#include "reference_parts.cuh"

namespace lab06 {

int conflict_ways(int stride, int word_bytes) {
    if (stride < 1 || (word_bytes != 4 && word_bytes != 8))
        throw std::invalid_argument("conflict_ways: stride must be at least 1 and word_bytes 4 or 8");
    return stride & -stride;  // BUG: a warp has only 32 lanes (16 a pass for 8-byte words)
}

void strided_loads(int stride, int word_bytes, float* sink) { reference::strided_loads(stride, word_bytes, sink); }

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int)>& run_known,
                         int word_bytes) {
    return reference::detect_conflict_ways(run_mystery, run_known, word_bytes);
}

const void* graded_kernel(int word_bytes) { return reference::graded_kernel(word_bytes); }

}  // namespace lab06
