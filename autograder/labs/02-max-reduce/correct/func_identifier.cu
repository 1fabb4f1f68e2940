// Correct Lab 02, the reference solution plus a contract
// check in the launcher whose message names the function with the standard C++11 identifier __func__.
// A submission written so was refused by the rules on the source or by the audit; it must pass every
// check, the audit of its compiled code included. The regions not given here are the solution's.

    // BEGIN STUDENT REGION launch
    if (n == 0) throw std::invalid_argument(std::string(__func__) + ": n must be at least 1");
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomics reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, kBlockSize>>>(in, out, n);
    // END STUDENT REGION
