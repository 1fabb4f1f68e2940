// Lab 01's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the baseline and the library peer and holds no student code.
#include "sum_reduction.cuh"

#include "baselines.cuh"

#include <cstddef>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("01");

namespace lab01 {
void sum_reduce(const float* d_in, float* d_out, std::size_t n) {
    grading::isolation::forward(grading::isolation::Host::Student, "sum_reduce", d_in, d_out, n);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab01

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv, {{"sum_reduce", entry(&lab01::sum_reduce)}}, lab01::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    using grading::launch_host::sized_peer;
    return grading::launch_host::serve(argc, argv,
                                       {{"naive_sum", entry(&lab01::baseline::naive_sum)},
                                        {"cub_sum", entry(&sized_peer<lab01::baseline::CubSum>)}},
                                       nullptr);
}
#endif
