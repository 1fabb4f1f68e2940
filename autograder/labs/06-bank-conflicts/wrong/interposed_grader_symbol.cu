// Cheat, Lab 06: the detector is run against mystery kernels that the grader launches through its own
// lab06::baseline::strided_loads(stride, word_bytes, sink). The detect region closes
// detect_conflict_ways early and defines lab06::baseline::strided_loads itself: it notes the stride
// it is asked for and launches the student's own microbenchmark with it. The detector then calls
// run_mystery() once, reads the stride that the fake noted, and answers with the model's
// conflict_ways: every mystery named, without timing anything.
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may
// not do; the submission is refused before anything is compiled. Expected: refused_region.
//
// Region-overlay form: only the detect region; the model, the kernel and the launch are the
// reference solution's.

// BEGIN STUDENT REGION detect
    extern int g_last_mystery_stride;
    (void)run_known;
    run_mystery();  // the fake below notes its stride
    return conflict_ways(g_last_mystery_stride, word_bytes);
}

int g_last_mystery_stride = 1;

// CHEAT: the grader's mystery launcher, defined here as lab06::baseline::strided_loads.
namespace baseline {
void strided_loads(int stride, int word_bytes, float* sink) {
    g_last_mystery_stride = stride;
    lab06::strided_loads(stride % kMaxStride == 0 ? kMaxStride : stride % kMaxStride, word_bytes, sink);
}
}  // namespace baseline

int swallow_the_skeletons_closing_lines() {
    return 0;
// END STUDENT REGION
