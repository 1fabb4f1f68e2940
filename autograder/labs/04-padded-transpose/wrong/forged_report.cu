// Cheat, Lab 04: a student who read both the runner and the audit knows that the checks' records go
// through fd 3 and that importing write(2) (or any file function) is refused. So the launcher makes
// no library call at all: it issues the write as a raw `syscall` instruction in inline asm (allowed
// in a function-scope region, where GPU code needs asm), appending a passed "end" record for the
// speed check it cannot pass.
// Why it fails now: the audit disassembles the lab's host code and refuses a raw system call
// instruction; even unrefused, the record would carry neither the run's key nor the next sequence
// number, and the runner would fail every check as grader_integrity. Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (the reference launch plus the forged record); the
// kernel region is the reference solution's.

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    // CHEAT: write(3, record, length) without the C library.
    static bool sent = false;
    if (!sent) {
        sent = true;
        static const char record[] = "{\"event\":\"end\",\"check\":\"speed: close to cudaMemcpy device to device\","
                                     "\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"seconds\":0.1}\n";
        long written = 0;
        asm volatile("syscall"
                     : "=a"(written)
                     : "a"(1L /* SYS_write */), "D"(3L), "S"(record), "d"(sizeof record - 1)
                     : "rcx", "r11", "memory");
        if (written < 0) sent = false;  // try again next call
    }
// END STUDENT REGION
