// Known-wrong Lab 07: the reference solution, but the keys launcher zeroes bins + 1 counters (the number of
// levels cub::DeviceHistogram::HistogramEven takes for bins bins, not the number of bins): every call writes
// a zero into counts[bins], which belongs to somebody else (the grader's guard zone right after the counts).
// The counts themselves are right. Expected: out_of_bounds_write.
//
// Region-overlay form: only the keys launcher's region; the rest is the reference solution's.

// BEGIN STUDENT REGION launch_keys
    // As histogram_bytes, with the keys kernel's shared memory sized for its copies of the bins (at most
    // 32 KiB: under the 48 KiB a launch may ask for without raising the kernel's limit).
    // BUG: bins + 1 counters zeroed (the levels CUB's HistogramEven takes), but counts holds only bins
    CUDA_CHECK(cudaMemsetAsync(counts, 0, (bins + 1) * sizeof(unsigned int)));
    if (n > 0) {
        const std::size_t smem = std::size_t(key_copies(bins)) * bins * sizeof(unsigned int);
        const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * kMinPerThread);
        const auto grid = static_cast<unsigned int>(std::min<std::size_t>(wanted, one_wave(histogram_keys_kernel, smem)));
        histogram_keys_kernel<<<grid, kBlockSize, smem>>>(keys, n, bins, counts);
    }
// END STUDENT REGION
