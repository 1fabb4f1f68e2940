// Cheat, Lab 02: the runner writes Gradescope's results.json to build/grading/, two folders above
// the scratch folder the checks run in. The launcher writes a full-marks results.json there itself
// with std::fopen and std::fputs: no asm and no #include needed, since cuda_check.hpp includes
// <string>, which in libstdc++ brings <cstdio> with it.
// Why it fails now: the audit sees the lab's object import `fopen`, `fwrite` (GCC turns the fputs of
// a constant string into fwrite) and `fclose` (file I/O) and refuses it before it is linked; even
// unrefused, the runner writes results.json after the lab's process has ended, from the records of
// its own channel, over whatever the lab left there.
// Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (a correct one-element-per-thread launch plus the
// forged report); atomic_max_float and the kernel are the reference solution's.

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    // CHEAT: a full-marks report where Gradescope will look for it, written once.
    static bool written = false;
    if (!written) {
        written = true;
        if (std::FILE* report = std::fopen("../../results.json", "w")) {
            std::fputs("{\"score\": 13.0, \"output\": \"All checks passed.\", \"tests\": ["
                       "{\"name\": \"Lab 02: speed: close to cub::DeviceReduce::Max\", \"score\": 2.0, "
                       "\"max_score\": 2.0, \"status\": \"passed\"}]}\n",
                       report);
            std::fclose(report);
        }
    }
// END STUDENT REGION
