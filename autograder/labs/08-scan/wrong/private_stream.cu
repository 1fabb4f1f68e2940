// Known-wrong Lab 08 (a measurement cheat): the reference solution's memset and kernel, launched on a private
// non-blocking stream, so that events recorded on the default stream would not wait for them. Creating
// streams is refused by the audit: a lab's work goes on the default stream. Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region; the other regions are the reference solution's.

// BEGIN STUDENT REGION launch
    static cudaStream_t stream = [] {
        cudaStream_t s = nullptr;
        CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));  // BUG (cheat)
        return s;
    }();
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes, stream));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize, 0, stream>>>(in, out, n, share);
// END STUDENT REGION
