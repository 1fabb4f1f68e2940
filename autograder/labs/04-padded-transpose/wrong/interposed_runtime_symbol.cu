// Cheat, Lab 04: the grader times every contender with CUDA events (cudaEventElapsedTime). The launch
// region raises a flag, closes transpose early and, at namespace scope, defines a function whose asm
// label is `cudaEventElapsedTime`: an interval in which the student's launcher ran "takes" 1 us, any
// other 1 ms, so both speed ratios come out at 1000x.
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may
// not do, so it is refused before anything is compiled; as a whole file instead, the audit would
// refuse a lab that defines a symbol of the CUDA runtime outside its namespace.
// Expected: refused_region.
//
// Region-overlay form: only the launch region; the kernel region is the earlier
// reference's (wrong/previous_reference.cu).

// FILL FROM: wrong/previous_reference.cu  (the regions not given here: transpose_tile_kernel)

// BEGIN STUDENT REGION launch
    extern bool g_student_ran;
    g_student_ran = true;
    constexpr int kTileRows = 2 * kTile;  // the earlier reference kernel's tile: 64 x 32
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTileRows)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
}

bool g_student_ran = false;

// CHEAT: the runtime's event timer, replaced under its C name.
cudaError_t fake_elapsed_time(float* ms, cudaEvent_t start, cudaEvent_t stop) __asm__("cudaEventElapsedTime");
cudaError_t fake_elapsed_time(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = g_student_ran ? 0.001f : 1.0f;
    g_student_ran = false;
    return cudaSuccess;
}

void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
