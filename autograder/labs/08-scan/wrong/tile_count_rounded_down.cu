// Known-wrong Lab 08: the reference solution whose launcher counts whole tiles only (n / kTileSize, at least
// one), so the last, partial tile of every n above 4096 that is not a multiple of 4096 is never scanned: its
// elements keep the poison. Right at n <= 4096 and at multiples of 4096. Expected: wrong_result (the hint
// says the elements were never written).
//
// Region-overlay form: only the launch region; the others are the reference solution's.

// BEGIN STUDENT REGION launch
    // One launch, one block a tile. The counter and every tile's status start at zero in every call.
    const std::size_t tiles = std::max<std::size_t>(n / kTileSize, 1);  // BUG: the partial tile is dropped
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
// END STUDENT REGION
