// Timing a case and checking every call (see bench.hpp): the course's own timer, the grader's device checks.
#include "bench.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"
#include "timer.hpp"
#include "verify.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace bench {

const char* unit(Bound bound) { return bound == Bound::Memory ? "GB/s" : "TFLOP/s"; }

std::string check_scalar(const std::string& what, float got, float expected, double tolerance, const std::string& peer) {
    if (std::isfinite(got) && std::fabs(double(got) - double(expected)) <= tolerance) return "";
    std::ostringstream s;
    s.precision(9);
    s << what << " is " << got << " but " << peer << " gives " << expected;
    if (tolerance > 0) s << " (tolerance " << tolerance << ")";
    return s.str();
}

std::string check_array(const std::string& what, const float* d_got, const float* d_expected, std::size_t n, float atol,
                        const std::string& against) {
    const grading::DeviceComparison c = grading::compare_on_device(d_got, d_expected, n, atol);
    if (c.ok()) return "";
    return what + " differs from " + against + ": " + c.summary(what, n);
}

std::vector<Row> time_case(const Case& c, const Options& options) {
    const std::size_t n = c.contenders.size();
    std::vector<std::function<void()>> runs;
    for (const Contender& k : c.contenders) runs.push_back(k.run);
    std::vector<std::string> problems(n);
    std::vector<int> calls(n, 0);

    course::BenchOptions opt;
    opt.warmup = options.warmup;
    opt.repetitions = options.rounds;
    opt.before_each = [&](std::size_t i) {
        if (c.contenders[i].prepare) c.contenders[i].prepare();
    };
    // Every call, warm-ups included, with the whole device idle and outside the timed interval.
    opt.after_each = [&](std::size_t i) {
        ++calls[i];
        if (!problems[i].empty() || !c.contenders[i].check) return;
        const std::string wrong = c.contenders[i].check();
        if (!wrong.empty()) problems[i] = "call " + std::to_string(calls[i]) + ": " + wrong;
    };
    const std::vector<std::vector<double>> samples = course::time_interleaved(runs, opt);

    std::vector<Row> rows;
    for (std::size_t i = 0; i < n; ++i) {
        const Contender& k = c.contenders[i];
        Row r;
        r.lab = c.lab;
        r.case_name = c.name;
        r.role = k.role;
        r.name = k.name;
        r.bound = c.bound;
        r.rounds = static_cast<int>(samples[i].size());
        r.ok = problems[i].empty() && !samples[i].empty();
        r.problem = problems[i];
        if (r.ok) {
            r.median_ms = course::median(samples[i]);
            r.min_ms = *std::min_element(samples[i].begin(), samples[i].end());
            r.max_ms = *std::max_element(samples[i].begin(), samples[i].end());
            r.throughput = c.bound == Bound::Memory ? course::gb_per_s(c.work, r.median_ms)
                                                    : course::gflop_per_s(c.work, r.median_ms) / 1e3;
        }
        rows.push_back(r);
    }
    const auto peer = std::find_if(rows.begin(), rows.end(), [](const Row& r) { return r.role == "peer"; });
    for (Row& r : rows)
        if (peer != rows.end() && peer->ok && r.ok && r.median_ms > 0) r.ratio_to_peer = peer->median_ms / r.median_ms;
    return rows;
}

Row copy_roofline(std::size_t bytes, const Options& options) {
    const std::size_t n = bytes / sizeof(float);
    course::DeviceBuffer<float> src(n), dst(n);
    course::fill_uniform_device(src.data(), n, course::derive_seed(options.seed, "bench-copy-roofline"));
    Case c;
    c.lab = "--";
    c.name = "copy roofline";
    c.bound = Bound::Memory;
    c.work = 2.0 * static_cast<double>(n * sizeof(float));  // read once, written once
    c.contenders.push_back(
        {"roofline", "cudaMemcpy D2D " + std::to_string((n * sizeof(float)) >> 20) + " MiB",
         [&] { CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), n * sizeof(float), cudaMemcpyDeviceToDevice)); },
         [&] { dst.fill_bytes(course::kPoisonByte); },
         [&] { return check_array("the copy", dst.data(), src.data(), n, 0.0f, "its source"); }});
    Row r = time_case(c, options).front();
    if (r.ok) {
        r.ratio_to_peer = 0.0;
        r.of_roofline = 1.0;
    }
    return r;
}

}  // namespace bench
