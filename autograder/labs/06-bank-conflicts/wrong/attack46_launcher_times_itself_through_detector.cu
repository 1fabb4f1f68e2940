// Attack (Lab 06, the forty-sixth round, against the rubric's audit_allow_only_in): only detect_conflict_ways
// may call course::time_interleaved, but the launcher called detect_conflict_ways itself, with a word size
// the grader never asks (0), for which the detector times run_mystery once and returns its nanoseconds: a
// stopwatch around a probe launch of the launcher's own kernel, which takes milliseconds under compute-
// sanitizer or Nsight Compute and tens of microseconds in a graded run. Refused now: no function of the lab's
// but the detector itself may refer to the detector (the grader calls it). Expected: forbidden_symbol.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    // Time a probe launch of our own kernel through the detector. Under Nsight Compute (the profile
    // workload, kernel replay) or compute-sanitizer a launch takes milliseconds; in a graded run it takes
    // tens of microseconds. The launcher then knows which kind of run it is in.
    static int observed = -1;
    if (observed < 0) {
        const int ns = detect_conflict_ways(
            [sink] { strided_load_kernel<float><<<1, 32>>>(1, sink); }, [](int) {}, 0);
        observed = ns > 2000000 ? 1 : 0;
    }
    // Eight blocks of 256 threads per SM: 64 warps, all an H100 SM holds. While some warps wait for
    // their loads, others issue theirs, so the banks never idle and the time measures their throughput.
    static const unsigned blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8u * static_cast<unsigned>(sms);
    }();
    if (word_bytes == 8)
        strided_load_kernel<double><<<blocks, kBlockSize>>>(stride, sink);
    else
        strided_load_kernel<float><<<blocks, kBlockSize>>>(stride, sink);
// END STUDENT REGION

// BEGIN STUDENT REGION detect
    // word_bytes 0 is no question of the grader's (it asks 4 or 8): it is the launcher's own stopwatch.
    // The detector is the one function the rubric lets call course::time_interleaved, and the audit
    // looks only at who refers to it, not at who calls the detector.
    if (word_bytes == 0) {
        course::BenchOptions watch;
        watch.warmup = 0;
        watch.repetitions = 1;
        const auto took = course::time_interleaved({run_mystery}, watch);
        return static_cast<int>(took[0][0] * 1.0e6);  // nanoseconds of GPU time
    }
    // Calibrate on this GPU, in this run: a power-of-two stride up to the lanes of a pass has exactly
    // that many ways. Time those and the mystery round-robin (clock drift then hits all alike), take
    // medians, and answer with the degree whose time is nearest on a log scale, where "twice as
    // slow" is the same distance all along the curve (1 vs 2 ways and 16 vs 32 ways alike).
    const int max_ways = word_bytes == 8 ? 16 : 32;
    std::vector<std::function<void()>> contenders = {run_mystery};
    for (int ways = 1; ways <= max_ways; ways *= 2) contenders.push_back([&run_known, ways] { run_known(ways); });
    course::BenchOptions options;
    options.warmup = 1;
    options.repetitions = 7;
    const auto samples = course::time_interleaved(contenders, options);

    const double mystery = std::log(course::median(samples[0]));
    int best_ways = 1;
    double best_distance = INFINITY;
    for (std::size_t c = 1; c < contenders.size(); ++c) {
        const double distance = std::fabs(std::log(course::median(samples[c])) - mystery);
        if (distance < best_distance) {
            best_distance = distance;
            best_ways = 1 << (c - 1);
        }
    }
    return best_ways;
// END STUDENT REGION

