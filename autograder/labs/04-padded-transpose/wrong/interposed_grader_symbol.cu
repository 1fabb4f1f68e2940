// Cheat, Lab 04: the first speed check divides the time of the grader's naive transpose,
// lab04::baseline::naive_transpose, by the student's. The launch region closes transpose early and
// defines its own lab04::baseline::naive_transpose: the same naive copy, launched 10 times over, so
// the baseline looks 10x slower (it is also the reference the bench gate compares with, and it still
// computes the right transpose); a dummy function takes the skeleton's closing lines.
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may
// not do; the submission is refused before anything is compiled. Expected: refused_region.
//
// Region-overlay form: only the launch region; the kernel region is the earlier
// reference's (wrong/previous_reference.cu).

// FILL FROM: wrong/previous_reference.cu  (the regions not given here: transpose_tile_kernel)

// BEGIN STUDENT REGION launch
    constexpr int kTileRows = 2 * kTile;  // the earlier reference kernel's tile: 64 x 32
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTileRows)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
}

// CHEAT: the grader's baseline, 10x slower; defined here, it is lab04::baseline::naive_transpose.
namespace baseline {
__global__ void slow_naive_kernel(const float* in, float* out, int rows, int cols) {
    const int col = blockIdx.x * kTile + threadIdx.x;
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = blockIdx.y * kTile + threadIdx.y + j;
        if (row < rows && col < cols) out[std::size_t(col) * rows + row] = in[std::size_t(row) * cols + col];
    }
}
void naive_transpose(const float* in, float* out, int rows, int cols) {
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    for (int again = 0; again < 10; ++again) slow_naive_kernel<<<grid, dim3(kTile, kBlockRows)>>>(in, out, rows, cols);
}
}  // namespace baseline

void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
