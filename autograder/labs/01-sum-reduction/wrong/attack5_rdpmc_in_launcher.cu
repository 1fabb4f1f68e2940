// Attack (Lab 01, against the audit): __builtin_ia32_rdpmc, a GCC builtin with no symbol and no include,
// reads a performance counter from the host launcher (rdpmc; where the kernel allows it in user space, a
// cycle counter): the audit's scan of the host code's instructions knew rdtsc, rdtscp and rdpid only.
// Expected: forbidden_symbol. The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    { volatile unsigned long long t = __builtin_ia32_rdpmc((1 << 30) | 1); (void)t; }
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
