// Lab 04's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the naive baseline and the copy peer and holds no student code.
#include "transpose.cuh"

#include "baselines.cuh"

#include <cstddef>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("04");

namespace lab04 {
void transpose(const float* d_in, float* d_out, int rows, int cols) {
    grading::isolation::forward(grading::isolation::Host::Student, "transpose", d_in, d_out, rows, cols);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab04

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv, {{"transpose", entry(&lab04::transpose)}}, lab04::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv,
                                       {{"naive_transpose", entry(&lab04::baseline::naive_transpose)},
                                        {"device_copy", entry(&lab04::baseline::device_copy)}},
                                       nullptr);
}
#endif
