// Known-wrong Lab 04 (a measurement cheat): the earlier reference kernel, but at the benchmark size only the
// first call with a given pair of buffers transposes; a later call with a pair seen before returns at
// once, betting that the output still holds the answer. It remembers 16 pairs, more than the speed bench
// has input slots (up to 8), so a pair does come again. The first call passes the correctness gate; the
// speed checks poison the output and refill the input with fresh contents before every timed call, and
// check each result. Expected: wrong_result.

// FILL FROM: wrong/previous_reference.cu  (the regions not given here: transpose_tile_kernel)

// BEGIN STUDENT REGION launch
    // BUG (cheat): remember the buffers of recent big calls and skip the work when a pair comes again.
    static const float* seen_in[16] = {};
    static const float* seen_out[16] = {};
    static int next = 0;
    if (std::size_t(rows) * cols >= (std::size_t(1) << 24)) {
        for (int k = 0; k < 16; ++k)
            if (seen_in[k] == in && seen_out[k] == out) return;
        seen_in[next] = in;
        seen_out[next] = out;
        next = (next + 1) % 16;
    }
    constexpr int kTileRows = 2 * kTile;  // the earlier reference kernel's tile: 64 x 32
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTileRows)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
// END STUDENT REGION
