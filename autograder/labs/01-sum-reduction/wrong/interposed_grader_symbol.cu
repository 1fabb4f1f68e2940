// Cheat, Lab 01: the speed check divides the time of the grader's naive baseline,
// lab01::baseline::naive_sum, by the student's. The launch region closes sum_reduce early and
// defines its own lab01::baseline::naive_sum, which launches the naive reduction 50 times over, so
// the baseline looks 50x slower and any correct kernel clears the 2.5x threshold; a dummy function
// reopens what the skeleton's closing lines expect.
// Why it fails now: a region may not close the function that holds it; the region's first `}`
// closes one opened outside it, and the submission is refused before anything is compiled.
// Expected: refused_region.
//
// Region-overlay form: only the launch region; the kernel region is the reference solution's.

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
}

// CHEAT: the grader's baseline, made 50x slower. It is defined here, in namespace lab01.
namespace baseline {
void naive_sum(const float* in, float* out, std::size_t n) {
    for (int again = 0; again < 50; ++again) {
        CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
        block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    }
}
}  // namespace baseline

void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
