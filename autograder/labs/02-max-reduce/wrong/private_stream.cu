// Known-wrong Lab 02 (a measurement cheat): the reference solution's kernels, launched on a private
// non-blocking stream, so that events recorded on the default stream would not wait for them. Creating
// streams is refused by the audit: a lab's work goes on the default stream. Expected: forbidden_symbol.

// BEGIN STUDENT REGION launch
    static cudaStream_t stream = [] {
        cudaStream_t s = nullptr;
        CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));  // BUG (cheat)
        return s;
    }();
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1, 0, stream>>>(out);
    block_max_kernel<<<grid, kBlockSize, 0, stream>>>(in, out, n);
// END STUDENT REGION
