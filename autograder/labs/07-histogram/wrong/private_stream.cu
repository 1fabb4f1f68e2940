// Known-wrong Lab 07 (a measurement cheat): the reference solution's zeroing and kernel, launched on a
// private non-blocking stream, so that events recorded on the default stream would not wait for them.
// Creating streams is refused by the audit: a lab's work goes on the default stream. Expected:
// forbidden_symbol.
//
// Region-overlay form: only the bytes launcher's region; the rest is the reference solution's.

// BEGIN STUDENT REGION launch_bytes
    static cudaStream_t stream = [] {
        cudaStream_t s = nullptr;
        CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));  // BUG (cheat)
        return s;
    }();
    static const unsigned int max_blocks = one_wave(histogram_bytes_kernel, 0);
    CUDA_CHECK(cudaMemsetAsync(counts, 0, kByteBins * sizeof(unsigned int), stream));
    if (n > 0) {
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, max_blocks));
        histogram_bytes_kernel<<<grid, kBlockSize, 0, stream>>>(data, n, counts);
    }
// END STUDENT REGION
