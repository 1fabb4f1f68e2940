// Known-wrong Lab 06: the detector never measures and always answers "conflict-free". Every mystery
// of 2 or more ways is misjudged. Expected: wrong_result.
#include "reference_parts.cuh"

namespace lab06 {

int conflict_ways(int stride, int word_bytes) { return reference::conflict_ways(stride, word_bytes); }

void strided_loads(int stride, int word_bytes, float* sink) { reference::strided_loads(stride, word_bytes, sink); }

int detect_conflict_ways(const std::function<void()>&, const std::function<void(int)>&, int) {
    return 1;  // BUG: a guess, not a measurement
}

const void* graded_kernel(int word_bytes) { return reference::graded_kernel(word_bytes); }

}  // namespace lab06
