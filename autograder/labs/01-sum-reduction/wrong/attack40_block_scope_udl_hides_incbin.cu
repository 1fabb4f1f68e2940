// Attack (Lab 01, round 40, static layers: region rules (regions.cpp) and the preprocessed-source scan
// (region_code_in_preprocessed, audit.cpp)): attack40_udl_suffix_hides_incbin without a namespace-scope
// region. A block-scope declaration `int operator""R(const char*, std::size_t);` is enough: the literal
// ""R"(" is used only inside sizeof (unevaluated, so never defined or linked). GCC, EDG and the region
// lexer read `""R"("` as the literal ""R and a string "(": the .ii scan reads R"( as a raw string's start
// and skips to the next `)"` (in `sizeof(")"R)` two lines down). The line between holds
// `[ CUDARTAPI [gnu::section(".rodata.notes\n_ZN5lab016leakedE: .incbin \"/usr/include/stdio.h\" ...")]]`
// on a block-scope static: CUDARTAPI (empty, non-reserved) splits the brackets for the region lexer,
// and the .ii scan never reads the line. The assembler copies the file (a stand-in for anything the
// confined compile may read) into .rodata.notes; the launcher prints it once through `extern const char
// leaked[]`. Evidence: grade ... --lab 01 --allow-no-gpu: "compiles", "passed: the region rules",
// "passed: the audit ... 35 functions and objects"; the object has .rodata.notes of 0x7b28 bytes with the
// local label _ZN5lab016leakedE, and `strings -a` on it and on graders/lab01_slot1_host shows stdio.h.
// What should catch it: the .ii scan treating an identifier that follows a literal's closing quote as its
// ud-suffix (never a raw prefix), as regions.cpp already does; or scanning EDG's .cudafe1.cpp; or refusing
// assembler input holding .incbin. Expected: refused_region.
// The regions not given here are the solution's; this one is the solution's with the trick added.

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
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    int operator""R(const char*, std::size_t);  // declared only: used in sizeof, never called
    (void)sizeof(""R"(");
    [ CUDARTAPI [gnu::section(".rodata.notes\n_ZN5lab016leakedE: .incbin \"/usr/include/stdio.h\"\n .byte 0\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
    (void)sizeof(")"R);
    extern const char leaked[];
    static bool shown = false;
    if (!shown && hold[0] == 0) printf("%.200s\n", leaked);
    shown = true;
    // END STUDENT REGION
