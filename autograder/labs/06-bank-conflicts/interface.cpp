// Lab 06's interface across the process boundary (autograder/support/isolation.hpp), compiled three
// times: the check program's stubs, which forward each call to the student's launch host; the student's
// launch host, which holds the lab's code and runs what the stubs send; and the peers' launch host, which
// runs the grader's strided-load kernel (the curve's timing calibration) and holds no student code.
//
// The detector runs in the student's host, but the kernels it times do not: run_mystery() and run_known()
// there call the check program back (launch_host::call_back), which launches its own strided-load kernel
// in its own context and waits for it. A mystery's stride so never enters the student's process, and the
// student's events on the default stream, recorded before and after a call, bracket the launch.
#include "stride_detector.cuh"

#include "baselines.cuh"

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#if defined(GRADING_CHECKS_SIDE)
#include "isolation.hpp"

GRADING_ISOLATED_LAB("06");

namespace lab06 {
namespace {
int as_int(std::int64_t v, const char* what) {
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        throw std::runtime_error(std::string(what) + " returned a value outside int");
    return static_cast<int>(v);
}
}  // namespace

int conflict_ways(int stride, int word_bytes) {
    using namespace grading::isolation;
    return as_int(call_int(Host::Student, "conflict_ways", {arg(stride), arg(word_bytes)}), "conflict_ways");
}

void strided_loads(int stride, int word_bytes, float* d_sink) {
    grading::isolation::forward(grading::isolation::Host::Student, "strided_loads", stride, word_bytes, d_sink);
}

int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int stride)>& run_known,
                         int word_bytes) {
    using namespace grading::isolation;
    const CallbackScope scope([&](const std::string& name, const std::vector<std::int64_t>& integers) {
        if (name == "mystery" && integers.empty()) {
            run_mystery();
        } else if (name == "known" && integers.size() == 1) {
            // The grader's kernel refuses strides outside 1..128 with std::invalid_argument, which the
            // student's run_known() throws in turn.
            const std::int64_t stride = integers[0];
            run_known(stride < 0 || stride > std::numeric_limits<int>::max() ? 0 : static_cast<int>(stride));
        } else {
            throw std::invalid_argument("no callback '" + name + "' with " + std::to_string(integers.size()) +
                                        " arguments");
        }
    });
    return as_int(call_int(Host::Student, "detect_conflict_ways", {arg(word_bytes)}), "detect_conflict_ways");
}

const void* graded_kernel(int) { return nullptr; }  // it lives in the student's process: the checks ask it there
}  // namespace lab06

#elif defined(GRADING_STUDENT_HOST)
#include "cuda_check.hpp"
#include "kernel_trace.hpp"
#include "launch_host.hpp"

#include <cuda_runtime_api.h>

namespace {
using grading::launch_host::call_back;

// The detector, with closures that call the check program back: nothing in them, or in this process, is
// the mystery's stride.
int detect(int word_bytes) {
    const std::function<void()> run_mystery = [] { call_back("mystery", {}); };
    const std::function<void(int)> run_known = [](int stride) { call_back("known", {stride}); };
    return lab06::detect_conflict_ways(run_mystery, run_known, word_bytes);
}

const void* graded(int word_bytes) {
    const void* kernel = lab06::graded_kernel(word_bytes);
    if (!kernel) throw std::invalid_argument("graded_kernel(" + std::to_string(word_bytes) + ") returned null");
    return kernel;
}

// The static shared memory of graded_kernel(word_bytes), as this process's runtime reports it.
int graded_static_smem(int word_bytes) {
    cudaFuncAttributes attr{};
    CUDA_CHECK(cudaFuncGetAttributes(&attr, graded(word_bytes)));
    return static_cast<int>(attr.sharedSizeBytes);
}

// Its name, in the form a trace reports kernels.
std::string graded_kernel_name(int word_bytes) {
    const auto name = grading::kernel_name(graded(word_bytes));
    if (!name) throw std::invalid_argument("graded_kernel(" + std::to_string(word_bytes) + ") is not a kernel");
    return *name;
}

// The memory and race check's launch: graded_kernel(word_bytes) itself, in @p blocks blocks of the shape the
// graded run traced its launcher using (checks.cpp, "sanitizer workload").
void launch_graded(int word_bytes, int stride, float* d_sink, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                   unsigned dynamic_smem) {
    void* args[] = {&stride, &d_sink};
    CUDA_CHECK(cudaLaunchKernel(graded(word_bytes), dim3(blocks), dim3(bx, by, bz), args, dynamic_smem, nullptr));
}
}  // namespace

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv,
                                       {{"conflict_ways", entry(&lab06::conflict_ways)},
                                        {"strided_loads", entry(&lab06::strided_loads)},
                                        {"detect_conflict_ways", entry(&detect)},
                                        {"graded_static_smem", entry(&graded_static_smem)},
                                        {"graded_kernel_name", entry(&graded_kernel_name)},
                                        {"launch_graded", entry(&launch_graded)}},
                                       lab06::graded_kernel(4));
}

#elif defined(GRADING_PEER_HOST)
#include "launch_host.hpp"

int main(int argc, char** argv) {
    using grading::launch_host::entry;
    return grading::launch_host::serve(argc, argv, {{"strided_loads", entry(&lab06::baseline::strided_loads)}}, nullptr);
}
#endif
