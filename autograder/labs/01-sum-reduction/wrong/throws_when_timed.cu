// Known-wrong Lab 01 (a measurement cheat against the shared speed bench): the reference, but at the
// benchmark size only the first call does the work; every later call throws. The first call is the
// speed bench's correctness gate, which passes; the warm-up call that follows throws out of the timed
// loop. The two speed checks share one measurement, so a throw there once left the second check with
// nothing to judge and nothing recorded: it passed. The bench now catches it like any call of the
// student's, records a crash and gives both speed checks the same verdict. Expected: crash.

// BEGIN STUDENT REGION launch
    // BUG (cheat): give up after the first call at the benchmark size.
    static int calls_at_bench_size = 0;
    if (n == (std::size_t(1) << 28) && ++calls_at_bench_size > 1) throw std::runtime_error("not timing this");
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
