// Lab 02 in the benchmark: the maximum of 2^28 floats (kBenchN in autograder/labs/02-max-reduce/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"   // lab02::baseline (autograder/labs/02-max-reduce)
#include "max_reduce.cuh"  // lab02::max_reduce, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <stdexcept>

namespace bench {

std::vector<Row> lab02(const Options& options) {
    constexpr std::size_t n = std::size_t(1) << 28;  // as the speed checks: 1 GiB, far larger than any L2
    course::DeviceBuffer<float> in(n);
    // Finite values only (as the checks' timed inputs), where CUB and the lab's NaN policy agree.
    course::fill_uniform_device(in.data(), n, course::derive_seed(options.seed, "bench-lab02"), -1.0f, 1.0f);
    course::DeviceBuffer<float> out(1);
    lab02::baseline::CubMax cub(n);
    auto result = [&] { return out.download()[0]; };

    // A maximum is exact: CUB's, and the naive baseline must give the very same value.
    cub(in.data(), out.data(), n);
    const float expected = result();
    lab02::baseline::naive_max(in.data(), out.data(), n);
    if (const std::string wrong = check_scalar("the naive maximum", result(), expected, 0.0, "cub::DeviceReduce::Max");
        !wrong.empty())
        throw std::runtime_error("Lab 02: the baselines disagree, so no reference result: " + wrong);

    auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // NaN: a call that writes nothing fails
    auto check = [&](const std::string& what) {
        return [&, what] { return check_scalar(what, result(), expected, 0.0, "cub::DeviceReduce::Max"); };
    };
    Case c;
    c.lab = "02";
    c.name = "max of 2^28 floats";
    c.bound = Bound::Memory;
    c.work = static_cast<double>(n) * sizeof(float);  // each element read once
    c.contenders = {
        {"reference", "lab02::max_reduce (solution)", [&] { lab02::max_reduce(in.data(), out.data(), n); }, poison,
         check("the solution's maximum")},
        {"naive", "lab02::baseline::naive_max", [&] { lab02::baseline::naive_max(in.data(), out.data(), n); }, poison,
         check("the naive maximum")},
        {"peer", "cub::DeviceReduce::Max", [&] { cub(in.data(), out.data(), n); }, poison, check("CUB's maximum")},
    };
    return time_case(c, options);
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab02("02", bench::lab02);
