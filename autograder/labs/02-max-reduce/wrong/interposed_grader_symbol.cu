// Cheat, Lab 02: the speed check divides the time of the grader's naive baseline,
// lab02::baseline::naive_max, by the student's. The launch region closes max_reduce early and
// defines its own lab02::baseline::naive_max, which runs the naive maximum 50 times over, so the
// baseline looks 50x slower; a dummy function takes the skeleton's closing lines.
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may
// not do; the submission is refused before anything is compiled. Expected: refused_region.
//
// Region-overlay form: only the launch region; atomic_max_float and the kernel are the reference's.

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
}

// CHEAT: the grader's baseline, made 50x slower; defined here, it is lab02::baseline::naive_max.
namespace baseline {
void naive_max(const float* in, float* out, std::size_t n) {
    for (int again = 0; again < 50; ++again) {
        set_identity_kernel<<<1, 1>>>(out);
        block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    }
}
}  // namespace baseline

void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
