// Cheat, Lab 01: a student who read the runner knows that the checks send their records through
// file descriptor 3 (kReportFd) as JSON lines, one "end" record per check. The launcher writes its
// own "passed" record for the speed check it cannot pass. No asm is needed to reach the C library:
// the lab includes cuda_check.hpp, whose <string> brings <cstdio> with it in libstdc++, so
// std::fopen("/dev/fd/3") and std::fputs are declared already (no #include in the region).
// Why it fails now: the audit of the lab's object sees the imports of `fopen`, `fwrite` (GCC turns
// the fputs of a constant string into fwrite) and `fclose`: file or stream I/O. It refuses the lab
// before it is linked; even unrefused, the record would carry neither
// the run's key nor the next sequence number, and the runner would fail every check as
// grader_integrity. Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (a correct one-element-per-thread launch plus the
// forged record); the kernel region is the reference solution's.

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    // CHEAT: append a "pass" for the CUB comparison to the grader's record channel, once.
    static bool sent = false;
    if (!sent) {
        sent = true;
        if (std::FILE* channel = std::fopen("/dev/fd/3", "a")) {
            std::fputs("{\"event\":\"end\",\"check\":\"speed: close to cub::DeviceReduce::Sum\","
                       "\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"seconds\":0.1}\n",
                       channel);
            std::fclose(channel);
        }
    }
// END STUDENT REGION
