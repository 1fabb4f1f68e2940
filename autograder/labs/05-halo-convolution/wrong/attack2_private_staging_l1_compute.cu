// Attack (Lab 05, against the shared-memory-use check): no halo tile and no reuse between threads. Each
// thread computes a column of 16 outputs straight from global memory (through L1, like the naive kernel
// but register-blocked: each of the 16 + K - 1 input rows it needs is read once, K taps wide, and added
// into every output that uses it). To satisfy the counters, every value it loads is also passed through
// a slot of shared memory private to that thread: stored, and read back (volatile, so the compiler keeps
// both) before it is used. So every launch stages exactly the bytes it loads from global memory (1.0 per
// one, >= 0.5 needed) and reads from shared memory K(16 + K - 1)/16 times what it stores to global
// (>= 0.5 needed); the kernel has shared memory and does all the work (the CUPTI check passes); no thread
// ever reads a value another thread staged, which is the whole point of the tile (each pixel loaded from
// global memory once a block). Expected to be fast enough: per output about 10 L1 loads plus as many
// conflict-free shared stores and loads for K = 7, and memory-bound for K = 3 and 5.
// What should catch it: the shared-memory-use check, if it also bounded global loads by the pixels a
// tile needs (global_load_bytes at most a small multiple of the input's size, with halo) or asked for
// shared loads well above the bytes staged; today its rules are ratios of staged to loaded bytes, which
// a pass-through slot meets exactly. Expected: technique_not_used (only the Nsight Compute item).

// BEGIN STUDENT REGION tile_shape
inline constexpr int kBlockX = 32;
inline constexpr int kBlockY = 8;
inline constexpr int kRowsPerThread = 16;  // a column of 16 outputs a thread
// END STUDENT REGION

// BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2;
    constexpr int kThreads = kBlockX * kBlockY;
    __shared__ float slot[K * kThreads];  // BUG (technique): K floats a thread, private to it: a pass-through
    volatile float* const mine = slot;
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
    const int x = static_cast<int>(blockIdx.x) * kBlockX + static_cast<int>(threadIdx.x);
    const int y0 = (static_cast<int>(blockIdx.y) * kBlockY + static_cast<int>(threadIdx.y)) * kRowsPerThread;
    const unsigned uwidth = static_cast<unsigned>(width), uheight = static_cast<unsigned>(height);
    float acc[kRowsPerThread];
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) acc[p] = 0.0f;
#pragma unroll
    for (int row = 0; row < kRowsPerThread + 2 * R; ++row) {  // input row y0 - R + row
        const unsigned gy = static_cast<unsigned>(y0 - R + row);
        float v[K];
#pragma unroll
        for (int j = 0; j < K; ++j) {
            const unsigned gx = static_cast<unsigned>(x - R + j);
            v[j] = gx < uwidth && gy < uheight ? in[std::size_t(gy) * width + gx] : 0.0f;  // from global (L1)
        }
#pragma unroll
        for (int j = 0; j < K; ++j) mine[j * kThreads + tid] = v[j];  // staged ...
#pragma unroll
        for (int j = 0; j < K; ++j) v[j] = mine[j * kThreads + tid];  // ... and read back by the same thread
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p) {
            const int i = row - p;  // the filter row that meets this input row in output p
            if (i >= 0 && i < K) {
#pragma unroll
                for (int j = 0; j < K; ++j) acc[p] = fmaf(c_weights[i * K + j], v[j], acc[p]);
            }
        }
    }
    if (x < width) {
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p)
            if (y0 + p < height) out[std::size_t(y0 + p) * width + x] = acc[p];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY * kRowsPerThread)));
    halo_convolution_kernel<K><<<grid, block>>>(in, out, width, height);
// END STUDENT REGION
