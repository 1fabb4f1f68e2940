// Known-wrong Lab 08: the reference solution with a typo (a missing semicolon) in its launcher.
// Expected: does_not_compile (the build log names the line).
//
// Region-overlay form: only the launch region; the others are the reference solution's.

// BEGIN STUDENT REGION launch
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize))
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
// END STUDENT REGION
