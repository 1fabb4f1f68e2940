// Attack (Lab 07, the forty-sixth round, against the region rules): __builtin_setjmp and __builtin_longjmp in
// the launcher: a non-local jump with no import of setjmp or longjmp for the audit to see (__builtin_trap
// likewise ends the process with no import of abort). Refused now by name in a region.
// Expected: refused_region.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION launch_bytes
    // GCC's own setjmp/longjmp builtins (no _setjmp import): a launcher that jumps back out of a
    // failed path without unwinding, skipping the CUDA_CHECK after the region.
    static void* jump_buffer[5];
    if (__builtin_setjmp(jump_buffer) != 0) return;
    if (n == 1) __builtin_longjmp(jump_buffer, 1);
    // One wave of blocks, never more than leaves each thread kMinPerThread elements: each thread then
    // loops over many elements, and at most a few thousand blocks merge into counts. The kernel's 32 KiB
    // of bins a block: the SM's largest shared-memory carve-out first, so that six blocks fit on an SM.
    static const unsigned int max_blocks = [] {
        CUDA_CHECK(cudaFuncSetAttribute(histogram_bytes_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                        int(cudaSharedmemCarveoutMaxShared)));
        return one_wave(histogram_bytes_kernel, 0);
    }();
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int)));  // stream order: zero first
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize>>>(data, n, counts);
    }
// END STUDENT REGION

