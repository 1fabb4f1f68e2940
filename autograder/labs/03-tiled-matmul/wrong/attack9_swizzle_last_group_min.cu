// Honest bug (Lab 03, ninth round): the grouped block order takes group_rows = min(kGroupRows, tiles_m)
// in place of min(kGroupRows, tiles_m - group * kGroupRows). Where there are several groups of tile rows
// and the last is short (ceil(M / 128) > 8 and not a multiple of 8, with N > 256), some tiles of C are
// never computed; wrong at 1100 x 300 x 64, for example.
// What should catch it: exact shapes derived from the tiles and the groups a kernel may use: several groups
// of tile rows and columns, with a short last group, in each direction. Expected: wrong_result.
// Got full marks on an H100 before the checks had the group shapes: every exact shape has at most 8 tile rows, or a multiple of 8 (4096, the tall shapes).

// BEGIN STUDENT REGION tiled_matmul_kernel
    // Two stages of each tile (double buffering): while the block computes on one, the next tile's
    // global loads are in flight into registers and then go to the other stage. 49152 bytes in all,
    // the most static shared memory a block may declare.
    __shared__ __align__(16) float As[2][kBK][kBM];  // (stage, k, m): A transposed, As[k][m] = A(m, k)
    __shared__ __align__(16) float Bs[2][kBK][kBN];  // (stage, k, n): B as it comes

    // Which tile of C. Blocks start in the order of their linear index, row by row of the grid. Here
    // they are renumbered so that consecutive blocks go down a group of kGroupRows tile rows before
    // moving right. For a wide C this keeps a wave's working set in L2: at N = 16384 (64 tile columns) a
    // wave of 132 blocks taken row by row spans 2 tile rows and all of B, grouped 8 tile rows and a
    // quarter of B. At 4096^2 (16 tile columns) a wave spans about 8 x 16 tiles either way, and the
    // order changes only which tiles run side by side (neighbours share columns of B rather than rows
    // of A). Measured there on an H200, in one stand-alone timing against cuBLAS: K tiles of 16 alone
    // 0.90, this order alone 0.90 to 0.91, both 0.91 to 0.93, neither 0.89 to 0.90; more than the
    // sum of the two, measured rather than explained.
    const int tiles_n = static_cast<int>(gridDim.x), tiles_m = static_cast<int>(gridDim.y);
    const int linear = static_cast<int>(blockIdx.y) * tiles_n + static_cast<int>(blockIdx.x);
    const int group = linear / (kGroupRows * tiles_n), in_group = linear % (kGroupRows * tiles_n);
    const int group_rows = min(kGroupRows, tiles_m);  // a grid shorter than a group is one short group
    const int block_row = (group * kGroupRows + in_group % group_rows) * kBM;
    const int block_col = (in_group / group_rows) * kBN;

    // Which outputs. Warp w owns the warp tile at rows (w / 4) * 64 and columns (w % 4) * 64 of the
    // block's tile; its lane (ly, lx) = (lane / 4, lane % 4) owns, inside it, rows ly*4 + (0..3) and
    // 32 + ly*4 + (0..3), and columns lx*4 + 16h + (0..3) for h = 0..3: float4 pieces interleaved with
    // the other lanes' (not 8 x 16 consecutive outputs), so that neighbouring lanes read neighbouring
    // float4 of shared memory and store neighbouring float4 of C. m0 and n0 are its first row and column.
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int m0 = (warp / kWarpsN) * kWM + (lane / kLanesN) * 4;
    const int n0 = (warp % kWarpsN) * kWN + (lane % kLanesN) * 4;

    // float4 access needs rows that start 16-byte aligned: a row length that is a multiple of 4.
    const bool vec_a = K % 4 == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
    const bool vec_b = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
    const bool vec_c = N % 4 == 0 && reinterpret_cast<std::uintptr_t>(C) % 16 == 0;

    // Global -> registers. Float4 number f = tid + i * kThreads of the A tile (128 x 16) is row f / 4,
    // columns (f % 4) * 4 ..: a warp reads 8 rows x 64 contiguous bytes of A, whole 32-byte sectors.
    // Of the B tile (16 x 256), row f / 64, columns (f % 64) * 4 ..: a warp reads 512 contiguous bytes.
    float4 a_next[kLoadsA], b_next[kLoadsB];
    auto load_tiles = [&](int k0) {
#pragma unroll
        for (int i = 0; i < kLoadsA; ++i) {
            const int f = tid + i * kThreads;
            a_next[i] = load_quad(A, M, K, block_row + f / (kBK / 4), k0 + (f % (kBK / 4)) * 4, vec_a);
        }
#pragma unroll
        for (int i = 0; i < kLoadsB; ++i) {
            const int f = tid + i * kThreads;
            b_next[i] = load_quad(B, K, N, k0 + f / (kBN / 4), block_col + (f % (kBN / 4)) * 4, vec_b);
        }
    };
    // Registers -> shared stage s, A transposed. A warp's float4 stores of B fill 512 contiguous bytes
    // of one row: 4 wavefronts, the least 512 bytes can take. Its scalar stores of A are not free of
    // bank conflicts, knowingly: each of a thread's four stores writes, across the warp, 8 consecutive m
    // in each of 4 rows of As (k, k + 4, k + 8, k + 12), and rows of 128 floats all start in bank 0, so
    // the 8 m of the four rows share 8 banks: 4 wavefronts where 1 would do. That is 24 extra
    // wavefronts a warp per tile (8 stores of A a thread), where Nsight Compute counts 320 for the
    // tile's reads and 24 for its stores without the conflict: about 7% more shared-memory traffic,
    // off the FMA loop's path. The conflict-free layouts measured slower on an
    // H200 at 4096^3: an XOR swizzle of As (which the reads must undo, at the cost of registers) 0.88 of
    // cuBLAS, each warp loading 32 rows of A (so its stores go to 32 banks, but its global loads use
    // half of each 32-byte sector) 0.90, this kernel 0.91. Padding the rows (Lab 04's cure) would not
    // fit two stages in 48 KB, nor keep the reads' float4 aligned and conflict-free at once.
    auto store_tiles = [&](int s) {
#pragma unroll
        for (int i = 0; i < kLoadsA; ++i) {
            const int f = tid + i * kThreads, m = f / (kBK / 4), k = (f % (kBK / 4)) * 4;
            As[s][k + 0][m] = a_next[i].x;
            As[s][k + 1][m] = a_next[i].y;
            As[s][k + 2][m] = a_next[i].z;
            As[s][k + 3][m] = a_next[i].w;
        }
#pragma unroll
        for (int i = 0; i < kLoadsB; ++i) {
            const int f = tid + i * kThreads;
            *reinterpret_cast<float4*>(&Bs[s][f / (kBN / 4)][(f % (kBN / 4)) * 4]) = b_next[i];
        }
    };

    float acc[kTM][kTN];  // the thread tile: 8 x 16 outputs, in registers throughout
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;

    load_tiles(0);
    store_tiles(0);
    __syncthreads();

    const int tiles = (K + kBK - 1) / kBK;
    for (int t = 0; t < tiles; ++t) {
        const int s = t & 1;
        const bool more = t + 1 < tiles;
        if (more) load_tiles((t + 1) * kBK);  // issued now, used after the FMAs below: their latency hides there
#pragma unroll
        for (int k = 0; k < kBK; ++k) {
            // Operands at this k: 2 float4 of A (rows m0 + 32g + (0..3)) and 4 of B (columns
            // n0 + 16h + (0..3)), 6 shared reads for 128 FMAs. Conflict-free: for each g the warp's
            // 32 lanes read only 8 distinct float4 of As, 128 contiguous bytes (the 4 lanes of a lane
            // row share one, a broadcast), and for each h only 4 distinct float4 of Bs, 64 contiguous
            // bytes, so no two lanes read different words of one bank. (A 16-byte read is still served
            // in parts: Nsight Compute counts 320 wavefronts for a warp's 96 reads of a tile, and no
            // bank conflict.)
            float a[kTM], b[kTN];
#pragma unroll
            for (int g = 0; g < kTM / 4; ++g) {
                const float4 v = *reinterpret_cast<const float4*>(&As[s][k][m0 + g * 4 * kLanesM]);
                a[4 * g] = v.x, a[4 * g + 1] = v.y, a[4 * g + 2] = v.z, a[4 * g + 3] = v.w;
            }
#pragma unroll
            for (int h = 0; h < kTN / 4; ++h) {
                const float4 v = *reinterpret_cast<const float4*>(&Bs[s][k][n0 + h * 4 * kLanesN]);
                b[4 * h] = v.x, b[4 * h + 1] = v.y, b[4 * h + 2] = v.z, b[4 * h + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < kTM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        // The stage written here was last read in the previous iteration, which every thread
        // finished before the barrier that ended it: with two stages, one barrier per tile suffices.
        if (more) store_tiles(s ^ 1);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < kTM; ++i) {
        const int row = block_row + m0 + (i / 4) * 4 * kLanesM + i % 4;
#pragma unroll
        for (int h = 0; h < kTN / 4; ++h) {
            const float4 v = make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
            store_quad(C, M, N, row, block_col + n0 + h * 4 * kLanesN, v, vec_c);
        }
    }
// END STUDENT REGION
