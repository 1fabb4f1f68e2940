// Lab 01 in the benchmark: the sum of 2^28 floats (kBenchN in autograder/labs/01-sum-reduction/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"      // lab01::baseline (autograder/labs/01-sum-reduction)
#include "sum_reduction.cuh"  // lab01::sum_reduce, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <cmath>
#include <stdexcept>

namespace bench {

std::vector<Row> lab01(const Options& options) {
    constexpr std::size_t n = std::size_t(1) << 28;  // as the speed checks: 1 GiB, far larger than any L2
    course::DeviceBuffer<float> in(n);
    // Positive values (as the checks' inputs), so the sum's rounding bound scales with the sum itself.
    course::fill_uniform_device(in.data(), n, course::derive_seed(options.seed, "bench-lab01"), 0.0f, 1.0f);
    course::DeviceBuffer<float> out(1);
    lab01::baseline::CubSum cub(n);
    auto result = [&] { return out.download()[0]; };

    // The expected sum is CUB's; the naive baseline must agree with it before either is trusted. Both are
    // float sums of 2^28 positive values in different orders: the checks' bound, doubled.
    cub(in.data(), out.data(), n);
    const float expected = result();
    const double tol = 2.0 * 8.0 * std::sqrt(double(n)) * std::ldexp(1.0, -24) * std::fabs(expected);
    lab01::baseline::naive_sum(in.data(), out.data(), n);
    if (const std::string wrong = check_scalar("the naive sum", result(), expected, tol, "cub::DeviceReduce::Sum");
        !wrong.empty())
        throw std::runtime_error("Lab 01: the baselines disagree, so no reference result: " + wrong);

    auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // NaN: a call that writes nothing fails
    auto check = [&](const std::string& what) {
        return [&, what] { return check_scalar(what, result(), expected, tol, "cub::DeviceReduce::Sum"); };
    };
    Case c;
    c.lab = "01";
    c.name = "sum of 2^28 floats";
    c.bound = Bound::Memory;
    c.work = static_cast<double>(n) * sizeof(float);  // each element read once
    c.contenders = {
        {"reference", "lab01::sum_reduce (solution)", [&] { lab01::sum_reduce(in.data(), out.data(), n); }, poison,
         check("the solution's sum")},
        {"naive", "lab01::baseline::naive_sum", [&] { lab01::baseline::naive_sum(in.data(), out.data(), n); }, poison,
         check("the naive sum")},
        {"peer", "cub::DeviceReduce::Sum", [&] { cub(in.data(), out.data(), n); }, poison, check("CUB's sum")},
    };
    return time_case(c, options);
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab01("01", bench::lab01);
