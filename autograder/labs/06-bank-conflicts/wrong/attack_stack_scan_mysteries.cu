// Known-wrong Lab 06 (a cheat against the in-process detector check): the detector times nothing when it can
// help it. wrong/reads_the_mystery_closure.cu read the stride out of run_mystery's closure, which the grader
// now masks with a secret; but Lab 06 still runs in the check program's own process, and check_detector()
// keeps the answers in a local std::vector<Mystery> {stride, ways} on its stack frame, a few frames above the
// student's. The detector walks up its own stack from a local variable, looking for a vector's three
// pointers (begin, end, capacity) whose span is exactly one Mystery per degree (6 for 4-byte words, 5 for
// 8-byte ones), and accepts it when every element is {stride in 1..128, ways = gcd(stride, lanes a pass)}
// and the degrees are all distinct. The mysteries are asked in the vector's order, so a static counter
// says which one is asked now. No call, no symbol: the audit sees nothing. When nothing is found it falls
// back to the reference's honest timing, so it passes either way; the test shows whether the scan worked
// only through the note (it answers instantly). Expected now: pass (a hole while Lab 06 runs in-process:
// the grader's secrets live in the student's address space); listed as wrong_result, the class a correct
// grader (one that keeps the answers out of the student's process) gives.

// BEGIN STUDENT REGION detect
    {
        // BUG (cheat): read the answer from the grader's stack.
        static int asked[2] = {0, 0};
        const int which = asked[word_bytes == 8 ? 1 : 0]++;
        const int lanes = word_bytes == 8 ? 16 : 32;
        int count = 0;
        for (int w = 1; w <= lanes; w *= 2) ++count;
        volatile int probe = 0;
        const std::uintptr_t start = (reinterpret_cast<std::uintptr_t>(&probe) + 7) & ~std::uintptr_t(7);
        for (std::uintptr_t at = start; at < start + 12288; at += 8) {
            const std::uintptr_t* w = reinterpret_cast<const std::uintptr_t*>(at);
            const std::uintptr_t b = w[0], e = w[1], c = w[2];
            if (b < 0x100000 || b > (std::uintptr_t(1) << 47) || b % 4 != 0) continue;
            if (e <= b || e - b != std::uintptr_t(8) * count || c < e || c - b > 512) continue;
            const int* m = reinterpret_cast<const int*>(b);
            bool ok = true;
            unsigned seen = 0;
            for (int k = 0; k < count && ok; ++k) {
                const int s = m[2 * k], ways = m[2 * k + 1];
                if (s < 1 || s > 128) {
                    ok = false;
                    break;
                }
                int g = s, h = lanes;
                while (h != 0) {
                    const int t = g % h;
                    g = h;
                    h = t;
                }
                ok = ways == g && (seen & unsigned(ways)) == 0;
                seen |= unsigned(ways);
            }
            if (ok && which < count) return m[2 * which + 1];
        }
    }
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
