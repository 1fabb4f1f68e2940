// Attack (Lab 01, against the region rules): a carriage return alone ends a line for the compiler but
// not for a lexer that ends a // comment at a line feed: the inline assembly and the #define after it,
// on what the lexer read as the comment, are code to the compiler.
// Expected: refused_region (a CR not followed by LF). The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    unsigned long long t3 = 0; // harmless comment    asm volatile("" : "=r"(t3));#define CR_DIRECTIVE 1
    if (t3 == 1 + CR_DIRECTIVE) return;
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
    // END STUDENT REGION
