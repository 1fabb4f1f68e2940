// Lab 05's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the naive baseline and the copy peer and holds no student code. The filter's weights are a host
// array: they travel in the message.
#include "halo_convolution.cuh"

#include "baselines.cuh"

#include <cstddef>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("05");

namespace lab05 {
void set_filter(const float* h_weights, int K) {
    using namespace grading::isolation;
    // K outside 1..kMaxFilterSize is sent as it is, with no weights: the student's code decides what it does.
    const int count = K > 0 && K <= kMaxFilterSize ? K * K : 0;
    call(Host::Student, "set_filter", {host_floats(h_weights, count), arg(K)});
}
void convolve(const float* d_in, float* d_out, int width, int height, int K) {
    grading::isolation::forward(grading::isolation::Host::Student, "convolve", d_in, d_out, width, height, K);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab05

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(
        argc, argv, {{"set_filter", entry(&lab05::set_filter)}, {"convolve", entry(&lab05::convolve)}},
        lab05::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv,
                                       {{"set_filter", entry(&lab05::baseline::set_filter)},
                                        {"naive_convolve", entry(&lab05::baseline::naive_convolve)},
                                        {"copy", entry(&lab05::baseline::copy)}},
                                       nullptr);
}
#endif
