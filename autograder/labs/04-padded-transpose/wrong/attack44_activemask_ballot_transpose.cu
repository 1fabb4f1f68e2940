// Attack (Lab 04, forty-fourth round, against the rule that refuses warp votes): the tile is turned
// around in registers as in attack15_ballot_transpose, but the ballot is made without a vote instruction:
// __activemask() inside a branch that only the lanes holding a bit take (the other side takes the
// complement) is the mask of those lanes. Every element still passes through its thread's own shared slot,
// for the counters.
// What catches it: the audit. Lab 04's rubric refuses activemask beside vote (a vote inside a branch).
// Expected: forbidden_symbol.
// BEGIN STUDENT REGION transpose_tile_kernel
    // One warp turns a 32 x 32 tile around in registers. No shuffle and no vote: a lane learns which
    // lanes hold a bit from __activemask() inside a branch only those lanes take (the other side takes
    // the complement), so 32 x 32 such masks carry every bit of the tile to the lane that writes it.
    // Every element still passes through the thread's own shared slot, as the lab's counters expect.
    __shared__ float slot[kTile];
    const unsigned lane = threadIdx.x;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    auto lanes_with = [](bool p) {
        unsigned m;
        if (p) {
            m = __activemask();
        } else {
            m = ~__activemask();
        }
        __syncwarp();
        return m;
    };
    unsigned v[kTile];
#pragma unroll
    for (int i = 0; i < kTile; ++i) {
        const int r = r0 + i, c = c0 + int(lane);
        const float x = r < rows && c < cols ? in[std::size_t(r) * cols + c] : 0.0f;
        slot[lane] = x;
        __syncwarp();
        v[i] = __float_as_uint(slot[lane]);
    }
    unsigned bits[32];
    for (int i = 0; i < kTile; ++i)
        for (int b = 0; b < 32; ++b) {
            const unsigned m = lanes_with((v[i] >> b) & 1u);
            if (int(lane) == i) bits[b] = m;
        }
    for (int k = 0; k < kTile; ++k) {
        unsigned w = 0;
        for (int b = 0; b < 32; ++b) w |= ((bits[b] >> k) & 1u) << b;
        const int orow = c0 + k, ocol = r0 + int(lane);
        if (orow < cols && ocol < rows) out[std::size_t(orow) * rows + ocol] = __uint_as_float(w);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, kTile>>>(in, out, rows, cols);
// END STUDENT REGION
