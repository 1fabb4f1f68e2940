// Known-wrong Lab 01 (an honest-looking bug): the reference solution, except that at large sizes the
// launcher zeroes the first elements of the input after the kernel, as if it were scratch space it may
// reuse. The input is read-only: the next call on it would see other data. The speed checks fingerprint
// the input after every call. Expected: wrong_result.

// BEGIN STUDENT REGION launch
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // BUG: the input is not ours to change.
    if (n >= (std::size_t(1) << 26)) CUDA_CHECK(cudaMemsetAsync(const_cast<float*>(in), 0, 1024 * sizeof(float)));
// END STUDENT REGION
