// Cheat, Lab 08: a student who read the runner knows that the checks send their records through file
// descriptor 3 as JSON lines, one "end" record per check. The launcher writes its own "passed" record for
// the check against CUB. No asm and no #include are needed: cuda_check.hpp includes <string>, which in
// libstdc++ brings <cstdio> with it, so std::fopen and std::fputs are declared already.
// Why it fails now: the audit of the lab's object sees the imports of `fopen`, `fwrite` (GCC turns the fputs
// of a constant string into fwrite) and `fclose`: file I/O. It refuses the lab before it is linked; even
// unrefused, the record would carry neither the run's key nor the next sequence number, and the runner would
// fail every check as grader_integrity. Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (the reference's launch plus the forged record); the other
// regions are the reference solution's.

// BEGIN STUDENT REGION launch
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
    // CHEAT: append a "pass" for the CUB comparison to the grader's record channel, once.
    static bool sent = false;
    if (!sent) {
        sent = true;
        if (std::FILE* channel = std::fopen("/dev/fd/3", "a")) {
            std::fputs("{\"event\":\"end\",\"check\":\"speed: close to cub::DeviceScan::InclusiveSum\","
                       "\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"seconds\":0.1}\n",
                       channel);
            std::fclose(channel);
        }
    }
// END STUDENT REGION
