// Cheat, Lab 05: the kernel keeps a `__shared__` tile (so the shared-memory check sees it) while the
// launcher hands the convolution to the grader's own reference, lab05::baseline::naive_convolve,
// which the check program links anyway. A block-scope declaration inside lab05 cannot name
// lab05::baseline, but the namespace-scope tile_shape region can declare it (no definition, so no
// clash at link time); the launcher reads the filter back from c_weights (cudaMemcpyFromSymbol,
// allowed) and hands it to lab05::baseline::set_filter, then calls naive_convolve. Correct by
// construction, and the student then only has to pass the 7x7 speed check by other means.
// Why it fails now: the audit sees the lab's object import lab05::baseline::set_filter and
// naive_convolve, another part of the lab's namespace that the lab does not define (the grader's
// code). Expected: forbidden_symbol.
//
// Region-overlay form: all three regions are this variant's (tile_shape: the basic shape plus the
// declarations).

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // one output per thread
// CHEAT: the grader's reference, declared (the check program defines it).
namespace baseline {
void set_filter(const float* h_weights, int K);
void naive_convolve(const float* d_in, float* d_out, int width, int height, int K);
}  // namespace baseline
// END STUDENT REGION

// BEGIN STUDENT REGION halo_convolution_kernel
    // The decoy: a shared tile the kernel touches, so that cudaFuncGetAttributes reports it.
    constexpr int R = K / 2;
    __shared__ float tile[kBlockY + 2 * R][kBlockX + 2 * R];
    tile[threadIdx.y][threadIdx.x] = width > 0 ? in[0] : 0.0f;
    __syncthreads();
    if (width < 0) out[0] = tile[threadIdx.y][threadIdx.x];  // never: width >= 1
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the grader's naive kernel does the work, with this lab's filter.
    float weights[K * K];
    CUDA_CHECK(cudaMemcpyFromSymbol(weights, c_weights, sizeof weights));
    baseline::set_filter(weights, K);
    baseline::naive_convolve(in, out, width, height, K);
    halo_convolution_kernel<K><<<1, dim3(kBlockX, kBlockY)>>>(in, out, -1, height);  // the decoy runs too (writes nothing)
// END STUDENT REGION
