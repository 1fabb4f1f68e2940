// Lab 07's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the baselines (the naive kernel, and the privatised one the one-bin speed check measures against)
// and the library peer, and holds no student code.
#include "histogram.cuh"

#include "baselines.cuh"

#include <cstddef>
#include <cstdint>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("07");

namespace lab07 {
void histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts) {
    grading::isolation::forward(grading::isolation::Host::Student, "histogram_bytes", d_data, n, d_counts);
}
void histogram_keys(const std::uint32_t* d_keys, std::size_t n, unsigned int bins, unsigned int* d_counts) {
    grading::isolation::forward(grading::isolation::Host::Student, "histogram_keys", d_keys, n, bins, d_counts);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab07

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(
        argc, argv,
        {{"histogram_bytes", entry(&lab07::histogram_bytes)}, {"histogram_keys", entry(&lab07::histogram_keys)}},
        lab07::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv,
                                       {{"naive_histogram_bytes", entry(&lab07::baseline::naive_histogram_bytes)},
                                        {"privatised_histogram_bytes", entry(&lab07::baseline::privatised_histogram_bytes)},
                                        {"cub_histogram_bytes", entry(&lab07::baseline::cub_histogram_bytes)}},
                                       nullptr);
}
#endif
