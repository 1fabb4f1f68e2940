// Cheat, Lab 06: the detector checks are the hard part, so the student forges their verdicts. The
// checks send JSON records through fd 3; the detect region opens a stdio stream on fd 3 with fdopen
// and fprintf's a passed "end" record for each detector check, then returns a plausible answer. No
// asm and no #include are needed: the lab's headers bring <cstdio>, whose <stdio.h> declares the
// POSIX ::fdopen too (g++ defines _GNU_SOURCE), next to std::fprintf and std::fflush.
// Why it fails now: the audit sees the lab's object import fdopen, fprintf and fflush (file or
// stream I/O) and refuses the lab before it is linked; even unrefused, the records would carry
// neither the run's key nor the next sequence numbers, and the runner would fail every check as
// grader_integrity. Expected: forbidden_symbol.
//
// Region-overlay form: only the detect region; the model, the kernel and the launch are the
// reference solution's.

// BEGIN STUDENT REGION detect
    // CHEAT: passed records for both detector checks, written once.
    static bool sent = false;
    if (!sent) {
        sent = true;
        std::FILE* channel = ::fdopen(3, "w");
        if (!channel) return 0;
        for (const char* check : {"detector names the ways of 4-byte mystery kernels",
                                  "detector names the ways of 8-byte mystery kernels"})
            std::fprintf(channel, "{\"event\":\"end\",\"check\":\"%s\",\"passed\":true,\"class\":\"pass\"}\n", check);
        std::fflush(channel);
    }
    run_mystery();  // looks busy
    (void)run_known;
    return word_bytes == 8 ? 16 : 32;
// END STUDENT REGION
