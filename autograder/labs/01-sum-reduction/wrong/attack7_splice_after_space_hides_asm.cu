// Attack (Lab 01, against the region rules): a backslash, a space and a line end split `asm` into
// `as` and `m`. GCC splices the lines (with a warning: whitespace after the backslash), so the launcher
// holds inline assembly that reads the time-stamp counter, hidden from the scan of its instructions by
// a jump into the middle of a call; the region lexer took the backslash for one before a space.
// Expected: refused_region (a backslash followed by spaces at a line's end). The regions not given here
// are the solution's.

// BEGIN STUDENT REGION launch
    unsigned long long t1 = 0;
    as\ 
m volatile(".byte 0xeb,0x01,0xe8; rdtsc; shl $32,%%rdx; or %%rdx,%%rax" : "=a"(t1) :: "rdx");
    if (t1 == 1) return;
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
