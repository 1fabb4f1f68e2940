// Lab 07 in the benchmark: the histogram of 2^28 bytes, uniform and all in one bin (kBenchN in
// autograder/labs/07-histogram/checks.cpp). The "naive" contender is each input's baseline in the speed
// checks: the naive kernel (a global atomic an element) on uniform bytes, the second tier (one histogram a
// block in shared memory) on bytes in one bin, where the naive kernel takes about 200 ms a call.
#include "bench.hpp"

#include "baselines.cuh"  // lab07::baseline (autograder/labs/07-histogram)
#include "histogram.cuh"  // lab07::histogram_bytes, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

namespace {
// "" when the device's 256 counts equal @p expected, else the first bin that differs.
std::string check_counts(const std::string& what, const course::DeviceBuffer<unsigned int>& counts,
                         const std::vector<unsigned int>& expected) {
    const std::vector<unsigned int> got = counts.download();
    for (std::size_t b = 0; b < got.size(); ++b)
        if (got[b] != expected[b])
            return what + ": counts[" + std::to_string(b) + "] = " + std::to_string(got[b]) + ", but " +
                   "cub::DeviceHistogram::HistogramEven counts " + std::to_string(expected[b]);
    return "";
}
}  // namespace

std::vector<Row> lab07(const Options& options) {
    constexpr std::size_t n = std::size_t(1) << 28;  // as the speed checks: 256 MiB, far larger than any L2
    course::DeviceBuffer<unsigned char> in(n);
    course::DeviceBuffer<unsigned int> out(lab07::kByteBins);
    lab07::baseline::CubHistogram cub(n);
    std::vector<Row> rows;
    for (const bool one_bin : {false, true}) {
        const std::uint64_t seed = course::derive_seed(options.seed, one_bin ? "bench-lab07-one-bin" : "bench-lab07");
        if (one_bin)
            in.fill_bytes(static_cast<unsigned char>(seed % 256));  // the contention case: every byte in one bin
        else
            lab07::baseline::fill_uniform_bytes(in.data(), n, seed);

        // Counts are exact: CUB's, and the baseline must give the very same.
        cub(in.data(), n, out.data());
        const std::vector<unsigned int> expected = out.download();
        const auto baseline =
            one_bin ? lab07::baseline::privatised_histogram_bytes : lab07::baseline::naive_histogram_bytes;
        baseline(in.data(), n, out.data());
        if (const std::string wrong = check_counts("the baseline's counts", out, expected); !wrong.empty())
            throw std::runtime_error("Lab 07: the baselines disagree, so no reference result: " + wrong);

        auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // a call that writes nothing fails
        auto check = [&](const std::string& what) {
            return [&, what] { return check_counts(what, out, expected); };
        };
        Case c;
        c.lab = "07";
        c.name = one_bin ? "histogram of 2^28 bytes in one bin" : "histogram of 2^28 uniform bytes";
        c.bound = Bound::Memory;
        c.work = static_cast<double>(n);  // each byte read once
        c.contenders = {
            {"reference", "lab07::histogram_bytes (solution)", [&] { lab07::histogram_bytes(in.data(), n, out.data()); },
             poison, check("the solution's counts")},
            {"naive",
             one_bin ? "lab07::baseline::privatised_histogram_bytes" : "lab07::baseline::naive_histogram_bytes",
             [&, baseline] { baseline(in.data(), n, out.data()); }, poison, check("the baseline's counts")},
            {"peer", "cub::DeviceHistogram::HistogramEven", [&] { cub(in.data(), n, out.data()); }, poison,
             check("CUB's counts")},
        };
        const std::vector<Row> these = time_case(c, options);
        rows.insert(rows.end(), these.begin(), these.end());
    }
    return rows;
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab07("07", bench::lab07);
