// Attack (Lab 01, against the preprocessed-source scan of attributes, audit.cpp): `[ CUDART_CB [` passes
// the region rules (an identifier stands between the brackets: a subscript for the lexer) and, CUDART_CB
// being an empty macro of cuda_runtime_api.h, is `[  [` in the preprocessed source; the scan read an
// attribute list on one line only, so the names on the list's second line were never read. There
// gnu::section hands the assembler a section name that is assembler source: an .init_array entry for
// S::hook, which then runs before main() in the launch host (checked by linking the object with a
// one-line main: "attack16: lab code ran before main" before "main() starts"). Region rules and audit
// both passed it.
// What catches it: the scan reads an attribute list on over the lines it spans (the state carries from
// line to line), so `section` on the second line is refused. Expected: refused_region.
// The regions not given here are the solution's.

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
    // The trick: an .init_array entry for a function of the region's own, made by a section name that
    // GCC hands to the assembler as written; the list goes on on the line after the one that opens it.
    struct S { static void hook() { printf("attack16: lab code ran before main\n"); } };
    static void (*volatile keep)() = &S::hook;
    [ CUDART_CB [maybe_unused,
        gnu::used, gnu::section(".rodata.a16c\n.section .init_array,\"aw\"\n.quad _ZZN5lab0110sum_reduceEPKfPfmEN1S4hookEv\n.section .rodata.a16d")]] static const char other[1] = {1};
    (void)keep;
    // END STUDENT REGION
