// Attack (Lab 05, ninth round, against the shared-memory-use rules): no shared tile. Each thread loads its
// own float4 of each input row it needs, gets the neighbouring columns from other lanes by shuffle (lanes 0
// and 31 load the columns outside the warp), and computes its outputs from registers; every float4 passes
// once through the thread's own __shared__ slot. It does so in every call, so profiled and timed calls
// agree; global loads stay under 4x the stores (about 2.7x at 7 x 7).
// What should catch it: evidence that shared loads read other threads' stores (per-instruction counters),
// or a floor of shared loads a store that a private slot cannot meet cheaply. Expected: technique_not_used.
// A hole on an H100: it passed every check (11/11 with the memory check off), speed included.

// BEGIN STUDENT REGION halo_convolution_kernel
    // Each thread computes a 4 x 4 patch (its float4 of columns, 4 rows). It loads its own float4 of each
    // of the 4 + 2R input rows it needs; the columns beside them come from the neighbouring lanes by
    // shuffles (lane 0 and lane 31 load the 4 columns past the warp's 128 themselves). Every float4 it
    // loads goes through shared memory on the way, in slots of its own ([row][tid], conflict-free).
    constexpr int R = K / 2;
    constexpr int kRows = kRowsPerThread + 2 * R;
    constexpr int kThreads = kBlockX * kBlockY;
    constexpr int kOutW = kBlockX * kColsPerThread;  // 128
    constexpr int kOutH = kBlockY * kRowsPerThread;  // 32
    static_assert(kBlockX == 32 && kColsPerThread == 4 && R < 4, "a warp is one row of 32 float4");
    __shared__ float4 stage[kRows][kThreads];

    const unsigned blocks_x = static_cast<unsigned>((width - 1) / kOutW + 1);
    const int ox = static_cast<int>(blockIdx.x % blocks_x) * kOutW;
    const int oy = static_cast<int>(blockIdx.x / blocks_x) * kOutH;
    const int tx = static_cast<int>(threadIdx.x), tid = static_cast<int>(threadIdx.y) * kBlockX + tx;
    const int x = ox + kColsPerThread * tx;                                // the thread's first column
    const int ytop = oy + static_cast<int>(threadIdx.y) * kRowsPerThread - R;  // its first input row
    const unsigned uwidth = static_cast<unsigned>(width), uheight = static_cast<unsigned>(height);
    const bool vec = width % 4 == 0;
    const auto at = [&](int gx, int gy) {
        return static_cast<unsigned>(gx) < uwidth && static_cast<unsigned>(gy) < uheight
                   ? in[static_cast<std::size_t>(gy) * width + gx] : 0.0f;
    };
    const auto quad = [&](int gx, int gy) {  // columns gx .. gx + 3 of row gy, zero outside the image
        if (vec) {
            if (static_cast<unsigned>(gx) < uwidth && static_cast<unsigned>(gy) < uheight)
                return *reinterpret_cast<const float4*>(in + static_cast<std::size_t>(gy) * width + gx);
            return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        return make_float4(at(gx, gy), at(gx + 1, gy), at(gx + 2, gy), at(gx + 3, gy));
    };
    float4 own[kRows], edge[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        own[r] = quad(x, ytop + r);
        edge[r] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (tx == 0) edge[r] = quad(x - 4, ytop + r);
        else if (tx == kBlockX - 1) edge[r] = quad(x + 4, ytop + r);
    }
#pragma unroll
    for (int r = 0; r < kRows; ++r) stage[r][tid] = own[r];
    __syncthreads();

    float acc[kRowsPerThread][kColsPerThread];
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p)
#pragma unroll
        for (int q = 0; q < kColsPerThread; ++q) acc[p][q] = 0.0f;
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        const float4 f = stage[r][tid];
        float4 lf, rt;
        lf.x = __shfl_up_sync(0xffffffffu, f.x, 1);
        lf.y = __shfl_up_sync(0xffffffffu, f.y, 1);
        lf.z = __shfl_up_sync(0xffffffffu, f.z, 1);
        lf.w = __shfl_up_sync(0xffffffffu, f.w, 1);
        rt.x = __shfl_down_sync(0xffffffffu, f.x, 1);
        rt.y = __shfl_down_sync(0xffffffffu, f.y, 1);
        rt.z = __shfl_down_sync(0xffffffffu, f.z, 1);
        rt.w = __shfl_down_sync(0xffffffffu, f.w, 1);
        if (tx == 0) lf = edge[r];
        if (tx == kBlockX - 1) rt = edge[r];
        const float v[12] = {lf.x, lf.y, lf.z, lf.w, f.x, f.y, f.z, f.w, rt.x, rt.y, rt.z, rt.w};
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p) {
            const int i = r - p;  // the filter row that meets input row r in output row p
            if (i >= 0 && i < K) {
#pragma unroll
                for (int q = 0; q < kColsPerThread; ++q)
#pragma unroll
                    for (int j = 0; j < K; ++j) acc[p][q] = fmaf(c_weights[i * K + j], v[q + 4 - R + j], acc[p][q]);
            }
        }
    }

    const unsigned ux = static_cast<unsigned>(x);
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) {
        const unsigned y = static_cast<unsigned>(oy) + threadIdx.y * kRowsPerThread + p;
        if (y >= uheight) break;
        float* const out_row = out + static_cast<std::size_t>(y) * width;
        if (vec) {
            if (ux < uwidth)
                *reinterpret_cast<float4*>(out_row + ux) = make_float4(acc[p][0], acc[p][1], acc[p][2], acc[p][3]);
        } else {
#pragma unroll
            for (int q = 0; q < kColsPerThread; ++q)
                if (ux + q < uwidth) out_row[ux + q] = acc[p][q];
        }
    }
// END STUDENT REGION
