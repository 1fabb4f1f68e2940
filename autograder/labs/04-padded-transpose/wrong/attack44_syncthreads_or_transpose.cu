// Attack (Lab 04, forty-fourth round, against the rule that refuses warp votes): blocks of one warp,
// where __syncthreads_or() (PTX bar.red.or) hands one bit of one lane to every lane, so the tile's
// elements change lanes bit by bit without a shuffle or a warp vote. Every element still passes through
// its thread's own shared slot, for the counters.
// What catches it: the audit. Lab 04's rubric refuses the block votes (bar.red, barrier.red) beside the
// warp votes. Expected: forbidden_symbol.
// BEGIN STUDENT REGION transpose_tile_kernel
    // A block of one warp: __syncthreads_or() (bar.red.or) hands one bit of one lane to every lane of
    // the block, so the tile's elements change lanes bit by bit without a shuffle or a vote.
    __shared__ float slot[kTile];
    const unsigned lane = threadIdx.x;
    const int r0 = blockIdx.y * kTile, c0 = blockIdx.x * kTile;
    unsigned v[kTile];
#pragma unroll
    for (int i = 0; i < kTile; ++i) {
        const int r = r0 + i, c = c0 + int(lane);
        const float x = r < rows && c < cols ? in[std::size_t(r) * cols + c] : 0.0f;
        slot[lane] = x;
        __syncwarp();
        v[i] = __float_as_uint(slot[lane]);
    }
    for (int k = 0; k < kTile; ++k) {
        unsigned w = 0;
        for (int b = 0; b < 32; ++b) {
            // lane j needs bit b of lane k's v[j]; the lanes take turns being the source, one per j
            for (int j = 0; j < kTile; ++j) {
                const int got = __syncthreads_or(int(lane) == k && ((v[j] >> b) & 1u));
                if (int(lane) == j && got) w |= 1u << b;
            }
        }
        const int orow = c0 + k, ocol = r0 + int(lane);
        if (orow < cols && ocol < rows) out[std::size_t(orow) * rows + ocol] = __uint_as_float(w);
    }
    const int popc = __syncthreads_count(v[0] != 0);
    if (popc < 0) out[0] = 0.0f;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, kTile>>>(in, out, rows, cols);
// END STUDENT REGION
