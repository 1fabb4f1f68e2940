// Known-wrong Lab 06: the "microbenchmark" never touches shared memory. It asks the model how many
// ways the stride has and spins that many times as long on register arithmetic, so its curve is the
// model's, exactly, and passes every timing check. Expected: technique_not_used.
//
// Region-overlay form: the kernel and launch regions. The original kernel named its first parameter
// `ways`; the skeleton names it `stride`, so the kernel region copies it into `ways` (the launch
// passes the conflict degree there, as before). The launch asks this file's conflict_ways (the
// reference solution's region: the same model the original took from the former
// reference_parts.cuh) and uses the reference's 8 blocks per SM, read once into a static; the
// skeleton checks the arguments first.

// BEGIN STUDENT REGION strided_load_kernel
    const int ways = stride;  // the launch below passes the conflict degree, not the stride
    constexpr int kSpinPerWay = 1024;  // ~0.04 ms a way on an H100
    float x0 = threadIdx.x, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
    for (int it = 0; it < ways * kSpinPerWay; ++it) {  // BUG: simulates the conflict instead of measuring it
        x0 = fmaf(x0, 0.999f, 0.5f);
        x1 = fmaf(x1, 0.999f, 0.5f);
        x2 = fmaf(x2, 0.999f, 0.5f);
        x3 = fmaf(x3, 0.999f, 0.5f);
    }
    const float total = (x0 + x1) + (x2 + x3);
    if (total < 0.0f) *sink = total;  // never: the values stay positive
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const int ways = conflict_ways(stride, word_bytes);
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(ways, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(ways, sink);
// END STUDENT REGION
