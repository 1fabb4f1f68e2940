// Attack (Lab 04, ninth round, against the shared-memory-use rules): a transpose done in registers. Each
// thread turns an 8 x 8 block around with float4 loads and stores (no shuffles, no movmatrix, so nothing is
// refused); every float4 it loads passes through its own conflict-free __shared__ slot and straight back,
// so the staged bytes equal the loaded bytes and no element changes lanes through shared memory. It does so
// in every call, so the counts of profiled and timed calls agree.
// What catches it: speed. On an H100 it ran at 0.47x cudaMemcpy (threshold 0.65) and 3.01x the naive
// transpose (threshold 4.5). Evidence that a shared load reads another thread's store would catch it as
// technique_not_used whatever its speed. Expected: too_slow.

// BEGIN STUDENT REGION transpose_tile_kernel
    // Each thread turns an 8 x 8 block around in registers: it loads 8 input rows of 8 columns (columns
    // 4 * lane .. + 3 and 128 + 4 * lane .. + 3 of its warp's 256-column strip, two float4 a row, so a
    // warp's load covers 512 consecutive bytes), then writes 8 output rows of 8 floats (a full 32-byte
    // sector a row, two float4). Its 16 float4 go through shared memory on the way, each thread in slots
    // of its own ([k][threadIdx.x], conflict-free), so the kernel stages every element it loads and reads
    // back every element it writes.
    constexpr int kThreads = 128;  // 4 warps, each 8 rows of a 32 x 256 block tile
    __shared__ float4 stage[16][kThreads];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int row0 = blockIdx.y * 32 + warp * 8;
    const int colA = blockIdx.x * 256 + 4 * lane;
    const int colB = colA + 128;
    const bool aligned = (reinterpret_cast<std::size_t>(in) | reinterpret_cast<std::size_t>(out)) % 16 == 0;
    const bool full = aligned && rows % 4 == 0 && cols % 4 == 0 && row0 + 8 <= rows && colB + 4 <= cols;
    float4 v[16];
    if (full) {
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            v[2 * i] = *reinterpret_cast<const float4*>(&in[std::size_t(row0 + i) * cols + colA]);
            v[2 * i + 1] = *reinterpret_cast<const float4*>(&in[std::size_t(row0 + i) * cols + colB]);
        }
    } else {
        auto at = [&](int i, int j) { return i < rows && j < cols ? in[std::size_t(i) * cols + j] : 0.0f; };
#pragma unroll
        for (int i = 0; i < 8; ++i) {
            v[2 * i] = make_float4(at(row0 + i, colA), at(row0 + i, colA + 1), at(row0 + i, colA + 2), at(row0 + i, colA + 3));
            v[2 * i + 1] = make_float4(at(row0 + i, colB), at(row0 + i, colB + 1), at(row0 + i, colB + 2), at(row0 + i, colB + 3));
        }
    }
#pragma unroll
    for (int k = 0; k < 16; ++k) stage[k][threadIdx.x] = v[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) v[k] = stage[k][threadIdx.x];
    // v[2i] holds input row row0 + i, columns colA .. colA + 3; v[2i + 1] columns colB .. colB + 3.
    auto pick = [](const float4& f, int j) { return j == 0 ? f.x : j == 1 ? f.y : j == 2 ? f.z : f.w; };
#pragma unroll
    for (int h = 0; h < 2; ++h) {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int out_row = (h == 0 ? colA : colB) + j;  // an input column
            const float4 lo = make_float4(pick(v[h], j), pick(v[2 + h], j), pick(v[4 + h], j), pick(v[6 + h], j));
            const float4 hi = make_float4(pick(v[8 + h], j), pick(v[10 + h], j), pick(v[12 + h], j), pick(v[14 + h], j));
            if (full) {
                *reinterpret_cast<float4*>(&out[std::size_t(out_row) * rows + row0]) = lo;
                *reinterpret_cast<float4*>(&out[std::size_t(out_row) * rows + row0 + 4]) = hi;
            } else if (out_row < cols) {
                const float vals[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
#pragma unroll
                for (int i = 0; i < 8; ++i)
                    if (row0 + i < rows) out[std::size_t(out_row) * rows + row0 + i] = vals[i];
            }
        }
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // Blocks of 128 threads, each a 32-row x 256-column tile of the input.
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, 256)), static_cast<unsigned>(course::ceil_div(rows, 32)));
    transpose_tile_kernel<<<grid, 128>>>(in, out, rows, cols);
// END STUDENT REGION
