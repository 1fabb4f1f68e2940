// Lab 03's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the naive baseline and cuBLAS and holds no student code.
#include "tiled_matmul.cuh"

#include "baselines.cuh"

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("03");

namespace lab03 {
void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    grading::isolation::forward(grading::isolation::Host::Student, "tiled_matmul", A, B, C, M, N, K);
}
const void* graded_kernel() { return nullptr; }  // it lives in the student's process: trace() reports it
}  // namespace lab03

#elif defined(GRADING_STUDENT_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv, {{"tiled_matmul", entry(&lab03::tiled_matmul)}},
                                       lab03::graded_kernel());
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

namespace {
// cublasSgemm in FP32 (the handle made once).
void cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K) {
    static lab03::baseline::CublasSgemm peer;
    peer(A, B, C, M, N, K);
}
}  // namespace

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(
        argc, argv,
        {{"naive_matmul", entry(&lab03::baseline::naive_matmul)}, {"cublas_sgemm", entry(&cublas_sgemm)}}, nullptr);
}
#endif
