// Cheat, Lab 07: the runner writes Gradescope's results.json to build/grading/, two folders above the
// scratch folder the checks run in. The launcher writes a full-marks results.json there itself with
// std::fopen and std::fputs: no asm and no #include needed, since cuda_check.hpp includes <string>, which
// in libstdc++ brings <cstdio> with it.
// Why it fails now: the audit sees the lab's object import `fopen`, `fwrite` (GCC turns the fputs of a
// constant string into fwrite) and `fclose` (file I/O) and refuses it before it is linked; even
// unrefused, the runner writes results.json after the lab's process has ended, from the records of its
// own channel, over whatever the lab left there. Expected: forbidden_symbol.
//
// Region-overlay form: only the bytes launcher's region (the reference's launch plus the forged report);
// the rest is the reference solution's.

// BEGIN STUDENT REGION launch_bytes
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts.
    static const unsigned int max_blocks = one_wave(histogram_bytes_kernel, 0);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // stream order: zero first
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize>>>(data, n, counts);
    }
    // CHEAT: a full-marks report where Gradescope will look for it, written once.
    static bool written = false;
    if (!written) {
        written = true;
        if (std::FILE* report = std::fopen("../../results.json", "w")) {
            std::fputs("{\"score\": 18.0, \"output\": \"All checks passed.\", \"tests\": ["
                       "{\"name\": \"Lab 07: speed: bytes in one bin, close to cub::DeviceHistogram::HistogramEven\", "
                       "\"score\": 2.0, \"max_score\": 2.0, \"status\": \"passed\"}]}\n",
                       report);
            std::fclose(report);
        }
    }
// END STUDENT REGION
