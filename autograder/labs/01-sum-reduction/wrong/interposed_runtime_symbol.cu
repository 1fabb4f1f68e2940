// Cheat, Lab 01: the grader times every contender with CUDA events (course::EventTimer calls
// cudaEventElapsedTime). The launch region raises a flag, closes sum_reduce early and defines
// cudaEventElapsedTime itself, with C linkage: an interval in which the student's launcher ran
// "takes" 1 microsecond, any other 1 ms, so both speed ratios (baseline / student, CUB / student)
// come out at 1000x.
// Why it fails now: the region's first `}` closes the function that holds it, which a region may
// not do, so it is refused before anything is compiled; written as a whole file instead, the audit
// would refuse a lab that defines a symbol of the CUDA runtime outside its namespace (and the
// runtime is linked statically into the grader, ahead of any shared library).
// Expected: refused_region.
//
// Region-overlay form: only the launch region; the kernel region is the reference solution's.

// BEGIN STUDENT REGION launch
    extern bool g_student_ran;
    g_student_ran = true;
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
}
bool g_student_ran = false;
}  // namespace lab01

// CHEAT: the runtime's event timer, replaced.
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = lab01::g_student_ran ? 0.001f : 1.0f;
    lab01::g_student_ran = false;
    return cudaSuccess;
}

namespace lab01 {
void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
