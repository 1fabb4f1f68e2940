// Lab 02's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the baseline and the library peer and holds no student code.
#include "max_reduce.cuh"

#include "baselines.cuh"

#include <cstddef>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("02");

namespace lab02 {
void max_reduce(const float* d_in, float* d_out, std::size_t n) {
    grading::isolation::forward(grading::isolation::Host::Student, "max_reduce", d_in, d_out, n);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab02

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv, {{"max_reduce", entry(&lab02::max_reduce)}}, lab02::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    using grading::launch_host::sized_peer;
    return grading::launch_host::serve(argc, argv,
                                       {{"naive_max", entry(&lab02::baseline::naive_max)},
                                        {"cub_max", entry(&sized_peer<lab02::baseline::CubMax>)}},
                                       nullptr);
}
#endif
