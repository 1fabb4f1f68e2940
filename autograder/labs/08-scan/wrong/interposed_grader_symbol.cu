// Cheat, Lab 08: the speed check divides the time of the grader's naive baseline,
// lab08::baseline::naive_scan, by the student's. The launch region closes scan_launch early and defines its
// own lab08::baseline::naive_scan, which runs the reference scan 50 times over, so that the baseline looks
// 50x slower; a dummy function takes the skeleton's closing lines.
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may not do;
// the submission is refused before anything is compiled. Expected: refused_region.
//
// Region-overlay form: only the launch region; the other regions are the reference solution's.

// BEGIN STUDENT REGION launch
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
}

// CHEAT: the grader's baseline, made 50x slower; defined here, it is lab08::baseline::naive_scan.
namespace baseline {
void naive_scan(const int* in, int* out, std::size_t n) {
    for (int again = 0; again < 50; ++again) scan_launch(in, out, n, 1);
}
}  // namespace baseline

template <class T>
void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
