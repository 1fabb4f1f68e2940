// Lab 08 in the benchmark: the inclusive scan of 2^28 ints (kBenchN in autograder/labs/08-scan/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"  // lab08::baseline (autograder/labs/08-scan)
#include "scan.cuh"       // lab08::inclusive_scan, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <stdexcept>
#include <string>

namespace bench {

std::vector<Row> lab08(const Options& options) {
    constexpr std::size_t n = std::size_t(1) << 28;  // as the speed checks: 1 GiB in, 1 GiB out, far larger than any L2
    // Random bits as ints (the bits of uniform floats, as the checks' inputs): the sums wrap all the time.
    course::DeviceBuffer<int> in(n);
    course::fill_uniform_device(reinterpret_cast<float*>(in.data()), n, course::derive_seed(options.seed, "bench-lab08"),
                                -1.0f, 1.0f);
    course::DeviceBuffer<int> expected(n), out(n);
    lab08::baseline::CubScan cub(n);

    // The expected scan is CUB's; the naive baseline must agree with it, bit for bit, before either is trusted.
    cub(in.data(), expected.data(), n);
    auto compare = [&](const std::string& what) -> std::string {
        const std::size_t first = lab08::baseline::first_difference(out.data(), expected.data(), n);
        if (first == n) return "";
        return what + " differs from cub::DeviceScan::InclusiveSum's from element " + std::to_string(first);
    };
    out.fill_bytes(course::kPoisonByte);
    lab08::baseline::naive_scan(in.data(), out.data(), n);
    if (const std::string wrong = compare("the naive scan"); !wrong.empty())
        throw std::runtime_error("Lab 08: the baselines disagree, so no reference result: " + wrong);

    auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // -1 everywhere: a call that writes nothing fails
    auto check = [&](const std::string& what) { return [&, what] { return compare(what); }; };
    Case c;
    c.lab = "08";
    c.name = "inclusive scan of 2^28 ints";
    c.bound = Bound::Memory;
    c.work = 2.0 * static_cast<double>(n) * sizeof(int);  // each element read once and written once
    c.contenders = {
        {"reference", "lab08::inclusive_scan (solution)", [&] { lab08::inclusive_scan(in.data(), out.data(), n); }, poison,
         check("the solution's scan")},
        {"naive", "lab08::baseline::naive_scan", [&] { lab08::baseline::naive_scan(in.data(), out.data(), n); }, poison,
         check("the naive scan")},
        {"peer", "cub::DeviceScan::InclusiveSum", [&] { cub(in.data(), out.data(), n); }, poison, check("CUB's scan")},
    };
    return time_case(c, options);
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab08("08", bench::lab08);
