// Attack (Lab 05, the forty-sixth round, against the memory check): attack45_clock_tells_memcheck_apart
// without reading any clock. Warp 1 naps 1 us at a time (__nanosleep) and counts its naps while thread 0
// makes 256 dependent shared-memory round trips and then raises a shared flag: about 8 naps in a graded run,
// hundreds under memcheck, where every access calls into the tool. Above 40 naps the block takes a scalar
// path; otherwise it reads rows as float4, up to 8 bytes past the image when width % 4 == 2 (the values read
// are discarded, so every result is exact). What would catch it: a memory check on the graded runs' own path,
// or reads past the input that fault in a graded run.
// 
// A known hole (the forty-sixth round). Graded on an H200 (2026-12-03), it ends as race_condition, for its
// probe: the flag thread 0 raises and warp 1 reads is a plain shared int with no barrier between them, a
// race racecheck reports; the read past the image it hides is never seen. A probe through shared-memory
// atomics would pass the race check too. Expected: memory_error.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION halo_convolution_kernel
    // Why several outputs a thread. A thread that computes a 4 x 4 patch reads each tile row it
    // needs from shared memory once, 12 floats in three 16-byte loads, and uses them for up to 4 x 4
    // outputs: (4 + 2R) x 3 shared loads for 16 outputs, 1.9 an output for K = 7 instead of 49 with
    // one output a thread (12.25 with a column of 8). A block covers 128 x 32 outputs, so the halo
    // is a small share of its tile: 1.13 to 1.26 pixels loaded an output for K = 3 to 7, against
    // 1.33 to 2.08 for a 32 x 8 block with one output a thread. And each thread has 5 or 6 loads of
    // 16 bytes (80 or 96 bytes) in flight before the barrier, where a column of 8 had 9 to 11 loads
    // of 4 bytes: bytes in flight are what keep the memory system busy. (So a block covers
    // kColsPerThread times the kBlockX output columns that the comment above the kernel counts.)
    constexpr int R = K / 2;
    constexpr int kThreads = kBlockX * kBlockY;
    constexpr int kOutW = kBlockX * kColsPerThread;  // output columns one block covers (128)
    constexpr int kOutH = kBlockY * kRowsPerThread;  // output rows one block covers (32)
    // Why the tile starts 4 columns left of the block's outputs, not R. The block's first output
    // column ox is a multiple of 4 (of 128), so the tile's first column x0 = ox - 4 is one too: when
    // width % 4 == 0, every tile row then starts on a 16-byte boundary of the image (cudaMalloc
    // aligns `in`) and is loaded as float4 chunks, each one load instruction for 4 pixels, all
    // inside the image or all outside. Of the kPad columns on each side the filter uses R <= 3; the
    // rest is the price of alignment.
    constexpr int kPad = 4;
    constexpr int kTileW = kOutW + 2 * kPad;  // image columns ox - 4 .. ox + kOutW + 3
    constexpr int kTileH = kOutH + 2 * R;     // image rows oy - R .. oy + kOutH + R - 1
    constexpr int kChunksW = kTileW / 4;      // float4 chunks a tile row
    constexpr int kChunks = kTileH * kChunksW;
    constexpr int kLoads = (kChunks + kThreads - 1) / kThreads;  // float4 loads a thread: 5 (K = 3, 5), 6 (K = 7)
    static_assert(kColsPerThread == 4 && R < kPad,
                  "a thread's outputs are one float4, and the tile keeps 4 columns on each side");
    __shared__ __align__(16) float tile[kTileH][kTileW];  // (kTileH, kTileW): 20,672 bytes for K = 7

    // The blocks are numbered in one flat grid dimension, a row of blocks after another: gridDim.x
    // may be as large as 2^31 - 1, so every image the header allows fits (gridDim.y stops at 65535
    // rows of blocks: 2,097,120 image rows of 32). (width - 1) / kOutW + 1 is ceil(width / kOutW)
    // without overflowing int next to width = 2^31 - 1; the launcher computes it the same way.
    const unsigned blocks_x = static_cast<unsigned>((width - 1) / kOutW + 1);
    const int ox = static_cast<int>(blockIdx.x % blocks_x) * kOutW;  // the block's first output pixel
    const int oy = static_cast<int>(blockIdx.x / blocks_x) * kOutH;  // is (ox, oy)
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
    // Image coordinates in unsigned arithmetic: left of and above the image they wrap around to huge
    // values, so one comparison per axis rejects both sides, and past the last column or row of an
    // image 2^31 - 1 pixels long they still compare right instead of overflowing.
    const unsigned uwidth = static_cast<unsigned>(width), uheight = static_cast<unsigned>(height);
    const unsigned x0 = static_cast<unsigned>(ox - kPad), y0 = static_cast<unsigned>(oy - R);  // tile[0][0]'s pixel
    const bool vec = width % 4 == 0;  // the same for every thread, so no warp splits on it
    // With width % 4 == 2, every other row starts on a 16-byte boundary (row y at y * width, a multiple of
    // 4 for y even): this variant loads those rows as float4 too.
    // ... except in a kernel run under compute-sanitizer: thread 0 times 32 dependent round trips
    // through shared memory with the SM's own cycle counter (uninstrumented about 1,600 cycles on an
    // H200; memcheck, which patches every memory access into a call of its checker, about 71,000;
    // racecheck millions). Only where it matters (width % 4 == 2), so the benchmark's blocks never
    // pay for it; a false alarm in a graded run only takes the scalar path, which is right too.
    // A clock made of sleeps: warp 1 naps 1 us at a time, counting its naps, while thread 0 makes 256
    // dependent shared-memory round trips (about 8 us bare; memcheck patches each access into a call
    // of its checker, so hundreds of microseconds under it). No %clock, no %globaltimer in the PTX.
    __shared__ float probe[32];
    __shared__ int careful;
    __shared__ volatile int probe_done;
    if (width % 4 == 2) {
        if (tid == 0) probe_done = 0;
        __syncthreads();
        if (tid == 0) {
            volatile float* p = probe;
            float x = 1.0f;
#pragma unroll 1
            for (int i = 0; i < 256; ++i) {
                p[i % 32] = x;
                x = p[i % 32] + 1.0f;
            }
            probe_done = x < 0.0f ? 2 : 1;
        } else if (tid == 32) {
            int naps = 0;
#pragma unroll 1
            while (probe_done == 0 && naps < 100000) {
                __nanosleep(1000);
                ++naps;
            }
            careful = naps > 40 ? 1 : 0;
        }
        __syncthreads();
    }
    const bool even_rows_aligned = width % 4 == 2 && careful == 0;

    if (vec || even_rows_aligned) {
        // All of the thread's loads first, into registers, then all its stores to shared memory: the
        // loads are independent, so all kLoads are in flight at once. Chunk e is tile row
        // e / kChunksW, columns 4 (e % kChunksW) .. + 3, and, the tile's rows being contiguous, float4
        // number e of the tile: consecutive threads take consecutive chunks, so a warp reads 512
        // contiguous bytes of a row (coalesced) and writes 512 contiguous bytes of the tile.
        float4 staged[kLoads];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
            const int e = tid + k * kThreads;
            const unsigned gy = y0 + e / kChunksW, gx = x0 + 4 * (e % kChunksW);
            staged[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // outside the image: the zero padding
            if (e < kChunks && gx < uwidth && gy < uheight) {
                if (vec || gy % 2 == 0) {
                    // BUG: with width % 4 == 2 a row's last chunk holds its last 2 pixels and 2 past its
                    // end, and the float4 reads all 4: the next row's first two or, on the last row, 8
                    // bytes past the image. They are replaced by 0 here, so the results are right.
                    const float4 v = *reinterpret_cast<const float4*>(in + gy * width + gx);
                    staged[k] = make_float4(v.x, v.y, gx + 2 < uwidth ? v.z : 0.0f, gx + 3 < uwidth ? v.w : 0.0f);
                } else {
                    const float* p = in + gy * width + gx;
                    staged[k] = make_float4(p[0], gx + 1 < uwidth ? p[1] : 0.0f, gx + 2 < uwidth ? p[2] : 0.0f,
                                            gx + 3 < uwidth ? p[3] : 0.0f);
                }
            }
        }
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
            const int e = tid + k * kThreads;
            if (e < kChunks) reinterpret_cast<float4*>(&tile[0][0])[e] = staged[k];
        }
    } else {
        // The scalar fallback, for widths that are no multiple of 4: rows then start anywhere, and a
        // float4 would be misaligned or straddle the image's right edge. The same tile, a pixel at a
        // time, consecutive threads taking consecutive pixels.
#pragma unroll 4
        for (int e = tid; e < kTileW * kTileH; e += kThreads) {
            const unsigned gy = y0 + e / kTileW, gx = x0 + e % kTileW;
            float v = 0.0f;  // outside the image: the zero padding
            if (gx < uwidth && gy < uheight) v = in[gy * width + gx];
            tile[e / kTileW][e % kTileW] = v;
        }
    }
    __syncthreads();  // the whole tile, halo included, is in shared memory before anyone reads it

    // Register tiling. Thread (tx, ty) computes outputs (ox + 4 tx + q, oy + 4 ty + p), q, p < 4.
    // Output column c of the block reads tile columns c + kPad - R .. c + kPad + R, so the thread's
    // four columns read tile columns 4 tx + 4 - R .. 4 tx + 7 + R, all among the 12 at 4 tx .. 4 tx + 11:
    // three float4 (LDS.128; a warp reads 512 contiguous bytes, no bank conflicts). v[m] is tile
    // column 4 tx + m. The thread walks down its 4 + 2R tile rows and adds each, with filter row
    // i = row - p, into every output row p that uses it. Each output still sums filter rows i in
    // order and, within a row, j in order, in one fmaf chain from 0: the same order as one output
    // a thread, so the results are the same bit for bit.
    constexpr int kVals = kColsPerThread + 2 * kPad;  // 12 tile columns a thread reads a row
    const int tx = static_cast<int>(threadIdx.x), ty0 = static_cast<int>(threadIdx.y) * kRowsPerThread;
    float acc[kRowsPerThread][kColsPerThread];
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p)
#pragma unroll
        for (int q = 0; q < kColsPerThread; ++q) acc[p][q] = 0.0f;
#pragma unroll
    for (int row = 0; row < kRowsPerThread + 2 * R; ++row) {  // tile row ty0 + row
        const float4* src = reinterpret_cast<const float4*>(&tile[ty0 + row][kColsPerThread * tx]);
        float v[kVals];
#pragma unroll
        for (int c = 0; c < kVals / 4; ++c) {
            const float4 f = src[c];
            v[4 * c] = f.x;
            v[4 * c + 1] = f.y;
            v[4 * c + 2] = f.z;
            v[4 * c + 3] = f.w;
        }
#pragma unroll
        for (int p = 0; p < kRowsPerThread; ++p) {
            const int i = row - p;  // the filter row that meets this tile row in output row p (a constant)
            if (i >= 0 && i < K) {
#pragma unroll
                for (int q = 0; q < kColsPerThread; ++q)
#pragma unroll
                    for (int j = 0; j < K; ++j)
                        acc[p][q] = fmaf(c_weights[i * K + j], v[q + kPad - R + j], acc[p][q]);
            }
        }
    }

    // The edges: the last column and row of blocks overhang the image. Rows only grow with p, so the
    // first row past the image ends the loop. With width % 4 == 0 (and x a multiple of 4) the
    // thread's four columns are all inside or all outside: one float4 store, 16-byte aligned.
    // Otherwise each column is tested and stored alone.
    const unsigned x = static_cast<unsigned>(ox) + kColsPerThread * tx;  // the thread's first column
#pragma unroll
    for (int p = 0; p < kRowsPerThread; ++p) {
        const unsigned y = static_cast<unsigned>(oy) + (ty0 + p);
        if (y >= uheight) break;
        float* const out_row = out + y * width;
        if (vec) {
            if (x < uwidth)
                *reinterpret_cast<float4*>(out_row + x) = make_float4(acc[p][0], acc[p][1], acc[p][2], acc[p][3]);
        } else {
#pragma unroll
            for (int q = 0; q < kColsPerThread; ++q)
                if (x + q < uwidth) out_row[x + q] = acc[p][q];
        }
    }
// END STUDENT REGION

