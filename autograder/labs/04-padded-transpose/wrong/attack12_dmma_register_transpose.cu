// Attack (Lab 04, twelfth round, against the audit's refused instructions): the tile is turned around in registers by
// the tensor cores, not in shared memory, and not by shuffles or movmatrix. Each warp moves 8 x 8 blocks
// of its block's 32 x 32 tile: lane l = 4r + q loads X[r][2q], X[r][2q + 1] (a row's 32 bytes), and two
// FP64 MMAs (m8n8k4, row.col; nvcc's WMMA builtin __dmma_m8n8k4_mma_f64, which the device compilation
// knows without a header) with 0/1 selector matrices as A and the lanes' values as B give D = X^T: each
// output is one value times 1.0 plus zeros, exact in double for every finite float. Lane l then holds
// output row r, columns 2q and 2q + 1 (one 32-byte row segment a quad). Elements change lanes inside
// the MMA, which Lab 04's rubric does not refuse ("refused_instructions" is shfl and movmatrix only).
// Like attack4_shuffle_transpose_passthrough, every element also passes through a shared slot of its
// own lane (volatile store and load), so the kernel stages every element it loads and reads back every
// element it writes, with no bank conflict. The arch dispatch needs no preprocessor line: the MMA stands
// in a generic lambda whose return type names __reduce_add_sync (declared for sm_80 and newer and for the
// host pass) with an argument of deduced type, so the compute_75 pass (and the host pass, which has no
// DMMA builtin) picks an overloaded fallback by SFINAE; sm_90's PTX holds wmma.mma...m8n8k4.f64.
// Cost on an H100/H200: 2 DMMAs (about 4 SM cycles) per 512 bytes moved, against about 28 cycles of the
// SM's share of DRAM bandwidth: the kernel stays memory-bound.
// What catches it: the audit, Lab 04's rubric refusing the tensor cores' instructions too (PTX mma, wmma,
// wgmma): they move values between lanes as surely as shfl and movmatrix do. Not run on a GPU.
// Expected: forbidden_symbol.

    // BEGIN STUDENT REGION transpose_tile_kernel
    // Each block moves one 32 x 32 tile as 16 blocks of 8 x 8, two a warp. An 8 x 8 block X is turned
    // around by the FP64 MMA (m8n8k4, row.col): lane l = 4r + q holds X[r][2q] and X[r][2q + 1] (one
    // float2 load, 32 bytes a row); as B fragments they are X[:, even]^T and X[:, odd]^T, and A = 0/1
    // selectors put them in rows 2k and 2k + 1 of D, so D = X^T exactly (products by 1.0 and 0.0, in
    // double). Lane l then holds D[r][2q], D[r][2q + 1]: one float2 store of output row r.
    // Every element also passes through a shared slot of its own lane (stored and read back).
    __shared__ float2 slot[kBlockRows][kTile];
    const int lane = static_cast<int>(threadIdx.x), warp = static_cast<int>(threadIdx.y);
    const int r = lane >> 2, q = lane & 3;
    // The MMA where the device compilation has it (sm_80 and newer: where __reduce_add_sync is
    // declared); elsewhere (sm_75's pass, the host pass) the fallback, a plain read of the input.
    auto dmma = [](auto* d, auto* a, auto* b, auto* c, auto m)
        -> decltype(__reduce_add_sync(m, 0u), __dmma_m8n8k4_mma_f64(d, a, b, c, 1, 0), bool()) {
        __dmma_m8n8k4_mma_f64(d, a, b, c, 1, 0);
        return true;
    };
    auto fallback = [](auto*, auto*, auto*, auto*, long) { return false; };
    struct Pick : decltype(dmma), decltype(fallback) {
        using decltype(dmma)::operator();
        using decltype(fallback)::operator();
    } pick{dmma, fallback};
#pragma unroll
    for (int s = 0; s < 2; ++s) {
        const int sub = warp * 2 + s;  // 0..15: the 8 x 8 block of the tile
        const int r0 = blockIdx.y * kTile + (sub >> 2) * 8, c0 = blockIdx.x * kTile + (sub & 3) * 8;
        const int in_row = r0 + r, in_col = c0 + 2 * q;
        float2 x;
        x.x = in_row < rows && in_col < cols ? in[std::size_t(in_row) * cols + in_col] : 0.0f;
        x.y = in_row < rows && in_col + 1 < cols ? in[std::size_t(in_row) * cols + in_col + 1] : 0.0f;
        volatile float2* mine = &slot[warp][lane];
        mine->x = x.x;
        mine->y = x.y;
        x.x = mine->x;
        x.y = mine->y;
        double a0[1] = {r == 2 * q ? 1.0 : 0.0}, a1[1] = {r == 2 * q + 1 ? 1.0 : 0.0};
        double b0[1] = {static_cast<double>(x.x)}, b1[1] = {static_cast<double>(x.y)};
        double zero[2] = {0.0, 0.0}, d[2] = {0.0, 0.0}, e[2] = {0.0, 0.0};
        const unsigned full = 0xffffffffu;
        float2 y;
        if (pick(d, a0, b0, zero, full) && pick(e, a1, b1, d, full)) {
            y = make_float2(static_cast<float>(e[0]), static_cast<float>(e[1]));
        } else {  // not on the GPUs that grade: read the transposed elements directly
            const int i0 = r0 + 2 * q, j = c0 + r;
            y.x = i0 < rows && j < cols ? in[std::size_t(i0) * cols + j] : 0.0f;
            y.y = i0 + 1 < rows && j < cols ? in[std::size_t(i0 + 1) * cols + j] : 0.0f;
        }
        // D[r][2q + e] = X[2q + e][r]: out row c0 + r, columns r0 + 2q, r0 + 2q + 1.
        const int out_row = c0 + r, out_col = r0 + 2 * q;
        if (out_row < cols && out_col < rows) out[std::size_t(out_row) * rows + out_col] = y.x;
        if (out_row < cols && out_col + 1 < rows) out[std::size_t(out_row) * rows + out_col + 1] = y.y;
    }
    // END STUDENT REGION
    // BEGIN STUDENT REGION launch
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    // END STUDENT REGION
