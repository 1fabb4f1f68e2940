// Correct Lab 06, written in the ordinary C++ a student may use in host code: the model marks, in a
// std::array, the lanes of one pass that share lane 0's bank and adds the marks up with std::accumulate;
// the detector takes medians through a lambda that sorts a copy of the times (std::sort) and throws
// std::invalid_argument for a sample it cannot use, which the detector catches by type. The kernel and
// its launch are the reference's. It must pass every check, the audit of its compiled code included.

// BEGIN STUDENT REGION conflict_ways
    // A pass serves 128 bytes: 32 lanes of 4-byte words, or 16 lanes of 8-byte words. Lane l's word
    // shares lane 0's bank when l * stride is a multiple of the pass's lanes; every bank in use is
    // shared by as many lanes, so their count is the conflict degree.
    const int lanes = kBanks * 4 / word_bytes;
    std::array<int, kBanks> shares_bank_0{};  // lanes past a 16-lane pass stay 0
    for (int lane = 0; lane < lanes; ++lane)
        shares_bank_0[static_cast<std::size_t>(lane)] = (static_cast<long long>(lane) * stride) % lanes == 0;
    return std::accumulate(shares_bank_0.begin(), shares_bank_0.end(), 0);
// END STUDENT REGION

// BEGIN STUDENT REGION detect
    // Time the mystery round-robin with known strides 1, 2, 4, ... (a power-of-two stride up to a pass's
    // lanes has exactly that many ways), and answer with the degree whose median is nearest on a log scale.
    const int max_ways = word_bytes == 8 ? 16 : 32;
    std::vector<std::function<void()>> contenders = {run_mystery};
    std::vector<int> degrees;
    for (int ways = 1; ways <= max_ways; ways *= 2) {
        contenders.push_back([&run_known, ways] { run_known(ways); });
        degrees.push_back(ways);
    }
    course::BenchOptions options;
    options.warmup = 1;
    options.repetitions = 7;
    const auto samples = course::time_interleaved(contenders, options);

    // The median of one contender's times. A sample it cannot use (no times, or a median that is not a
    // positive, finite time) throws, so a broken measurement never passes for a fast kernel.
    const auto median_time = [](std::vector<double> times) {
        if (times.empty()) throw std::invalid_argument("median_time: no times");
        std::sort(times.begin(), times.end());
        const double mid = times[times.size() / 2];
        if (!(mid > 0.0) || !std::isfinite(mid)) throw std::invalid_argument("median_time: not a positive time");
        return mid;
    };
    double mystery = 0.0;
    try {
        mystery = std::log(median_time(samples[0]));
    } catch (const std::invalid_argument& e) {
        throw std::runtime_error(std::string("detect_conflict_ways: the mystery kernel's times: ") + e.what());
    }
    int answer = 1;
    double nearest = INFINITY;
    for (std::size_t i = 0; i < degrees.size(); ++i) {
        double distance = INFINITY;
        try {
            distance = std::fabs(std::log(median_time(samples[i + 1])) - mystery);
        } catch (const std::invalid_argument&) {
            continue;  // a known stride without a usable time takes no part in the comparison
        }
        if (distance < nearest) {
            nearest = distance;
            answer = degrees[i];
        }
    }
    return answer;
// END STUDENT REGION
