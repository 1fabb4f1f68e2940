// Correct Lab 06, the reference solution plus a sanity check
// whose exception message formats the measured median with std::to_string(double) (it calls vsnprintf
// inside libstdc++'s inline code; std::string and exceptions are allowed).
// A submission written so was refused by the rules on the source or by the audit; it must pass every
// check, the audit of its compiled code included. The regions not given here are the solution's.

    // BEGIN STUDENT REGION detect
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

    const double mystery_median = course::median(samples[0]);
    if (!(mystery_median > 0.0) || !std::isfinite(mystery_median))
        throw std::runtime_error("detect_conflict_ways: the mystery kernel's median time " + std::to_string(mystery_median) +
                                 " is not a positive time");
    const double mystery = std::log(mystery_median);
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
