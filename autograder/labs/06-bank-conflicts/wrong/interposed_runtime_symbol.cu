// Cheat, Lab 06: the curve checks time strided_loads with CUDA events (cudaEventElapsedTime) and
// compare the ratios T(s) / T(1) with the model. The launch region notes the conflict degree of the
// stride it launches (from the student's own conflict_ways), closes strided_loads early and defines
// cudaEventElapsedTime with C linkage, reporting 0.05 ms times that degree: the "measured" curve is
// the model's, exactly, and the kernel no longer has to load anything from shared memory (it keeps a
// small shared array so that the technique check passes).
// Why it fails now: the region's first `}` closes a function opened outside it, which a region may
// not do, so it is refused before anything is compiled; as a whole file instead, the audit would
// refuse a lab that defines a symbol of the CUDA runtime outside its namespace.
// Expected: refused_region.
//
// Region-overlay form: the kernel region (no timed loads) and the launch region; the model and the
// detector are the reference solution's.

// BEGIN STUDENT REGION strided_load_kernel
    __shared__ Word words[kBanks];  // keeps the technique check quiet
    words[threadIdx.x % kBanks] = static_cast<Word>(stride);
    __syncthreads();
    if (words[0] < Word(0)) *sink = static_cast<float>(words[0]);  // never
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    extern int g_ways_of_last_launch;
    g_ways_of_last_launch = conflict_ways(stride, word_bytes);
    if (word_bytes == 8)
        strided_load_kernel<double><<<1, kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<1, kBlockSize>>>(stride, sink);
}

int g_ways_of_last_launch = 1;
}  // namespace lab06

// CHEAT: the runtime's event timer, replaced: the curve becomes the model's.
extern "C" cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0.05f * static_cast<float>(lab06::g_ways_of_last_launch);
    return cudaSuccess;
}

namespace lab06 {
void swallow_the_skeletons_closing_lines() {
// END STUDENT REGION
