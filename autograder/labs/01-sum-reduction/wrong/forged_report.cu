// Cheat, Lab 01: a student who read the runner knows that the checks send their records through
// file descriptor 3 (kReportFd) as JSON lines, one "end" record per check. The launcher writes its
// own "passed" record for the speed check it cannot pass, with write(2) reached through a
// block-scope declaration whose asm label names the C library's `write` (no #include needed).
// Why it fails now: the audit of the lab's object sees the import of `write` (file or stream I/O)
// and refuses the lab before it is linked; even unrefused, the record would carry neither the
// run's key nor the next sequence number, and the runner would fail every check as grader_integrity.
// Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (a correct one-element-per-thread launch plus the
// forged record); the kernel region is the reference solution's.

// BEGIN STUDENT REGION launch
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    // CHEAT: append a "pass" for the CUB comparison to the grader's record channel, once.
    long send_record(int fd, const void* bytes, unsigned long count) __asm__("write");
    static bool sent = false;
    if (!sent) {
        sent = true;
        const char record[] = "{\"event\":\"end\",\"check\":\"speed: close to cub::DeviceReduce::Sum\","
                              "\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"seconds\":0.1}\n";
        send_record(3, record, sizeof record - 1);
    }
// END STUDENT REGION
