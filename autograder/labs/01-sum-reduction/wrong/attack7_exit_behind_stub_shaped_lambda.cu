// Attack (Lab 01, against the audit): exit() is allowed in nvcc's host stand-ins of __device__
// functions, a few instructions that call it and nothing else; a lambda that calls std::exit, made a
// function pointer, has that shape (its static invoker), and ends the process in the middle of a check
// when called. A stand-in is never called or referred to by host code: this one is, from data.
// Expected: forbidden_symbol (calls exit). The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    { static void (*volatile quit)() = [] { std::exit(0); }; if (n == 12345) quit(); }
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
