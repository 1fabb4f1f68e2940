// Known-wrong Lab 04 (a measurement cheat): the reference kernel, but at the benchmark size only the
// first call with a given pair of buffers transposes; later calls with the same buffers return at once,
// betting that the output still holds the answer. The first call passes the correctness gate; the speed
// checks poison the output and refill the input before every timed call and check each result.
// Expected: wrong_result.

// BEGIN STUDENT REGION launch
    // BUG (cheat): remember the buffers of the last big call and skip the work when they come again.
    static const float* last_in = nullptr;
    static const float* last_out = nullptr;
    const bool big = std::size_t(rows) * cols >= (std::size_t(1) << 24);
    if (big && in == last_in && out == last_out) return;
    if (big) last_in = in, last_out = out;
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
