// Lab 08's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the naive scan and the CUB peer and holds no student code.
#include "scan.cuh"

#include "baselines.cuh"

#include <cstddef>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("08");

namespace lab08 {
void inclusive_scan(const int* d_in, int* d_out, std::size_t n) {
    grading::isolation::forward(grading::isolation::Host::Student, "inclusive_scan_int", d_in, d_out, n);
}
void inclusive_scan(const float* d_in, float* d_out, std::size_t n) {
    grading::isolation::forward(grading::isolation::Host::Student, "inclusive_scan_float", d_in, d_out, n);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab08

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    using IntScan = void (*)(const int*, int*, std::size_t);
    using FloatScan = void (*)(const float*, float*, std::size_t);
    return grading::launch_host::serve(argc, argv,
                                       {{"inclusive_scan_int", entry(static_cast<IntScan>(&lab08::inclusive_scan))},
                                        {"inclusive_scan_float", entry(static_cast<FloatScan>(&lab08::inclusive_scan))}},
                                       lab08::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

#include <memory>

namespace {
// The CUB peer, its temporary storage sized for the largest count seen so far (launch_host::sized_peer, for
// ints).
void cub_scan(const int* d_in, int* d_out, std::size_t n) {
    static std::unique_ptr<lab08::baseline::CubScan> peer;
    static std::size_t capacity = 0;
    if (!peer || n > capacity) {
        peer.reset();
        peer = std::make_unique<lab08::baseline::CubScan>(n);
        capacity = n;
    }
    (*peer)(d_in, d_out, n);
}
}  // namespace

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv,
                                       {{"naive_scan", entry(&lab08::baseline::naive_scan)},
                                        {"cub_scan", entry(&cub_scan)}},
                                       nullptr);
}
#endif
