// Known-wrong Lab 06: the kernel adds up its loads but never uses the sum, so the compiler deletes
// the loop, loads and all. Every stride then costs one empty launch: a flat curve.
// Expected: wrong_result.
//
// Region-overlay form: only the kernel region. Its launch (8 blocks of kBlockSize threads per SM,
// the SM count read once into a static) is the reference solution's launch region, the same code
// the original took from the former reference_parts.cuh; the model and the detector are the reference's too.

// BEGIN STUDENT REGION strided_load_kernel
    constexpr int kWords = kBanks * (kMaxStride + 4);
    __shared__ Word words[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) words[i] = static_cast<Word>(i % 8);
    __syncthreads();
    const Word* mine = words + (threadIdx.x % kBanks) * stride;
    Word a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int it = 0; it < 512; ++it) {
        a0 += mine[0 * kBanks];
        a1 += mine[1 * kBanks];
        a2 += mine[2 * kBanks];
        a3 += mine[3 * kBanks];
    }
    const Word total = (a0 + a1) + (a2 + a3);
    (void)total;  // BUG: nothing is stored, so nothing above has any effect and the compiler deletes it
    (void)sink;
// END STUDENT REGION
