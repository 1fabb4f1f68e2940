// Known-wrong Lab 02: the maximum is right, but the identity is also written to out[1], which
// belongs to somebody else. Expected: out_of_bounds_write.
//
// Region-overlay form: only the launch region is given, the reference solution's with one added
// line (the bug); kernel and atomic_max_float are the reference solution's. The original launched
// a modified set_identity_kernel (out[threadIdx.x] = -INFINITY) with two threads around the basic
// tier; set_identity_kernel now lies outside the regions, so the same stray write, -INFINITY into
// out[1] before block_max_kernel runs, comes from a second launch of it on out + 1. The class
// holds: the first call (n = 1) writes one float past *out, inside the guard zone, and
// out_of_bounds_write outranks every other failure this variant could show.

// BEGIN STUDENT REGION launch
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomics reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    set_identity_kernel<<<1, 1>>>(out + 1);  // BUG: out holds one float
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
