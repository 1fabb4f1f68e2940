// Lab 04 in the benchmark: an 8192 x 8192 transpose (kBenchSide in autograder/labs/04-padded-transpose/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"   // lab04::baseline (autograder/labs/04-padded-transpose)
#include "transpose.cuh"   // lab04::transpose, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

namespace bench {

std::vector<Row> lab04(const Options& options) {
    constexpr int side = 8192;  // as the speed checks: 256 MiB each way, far larger than L2
    constexpr std::size_t n = std::size_t(side) * side;
    course::DeviceBuffer<float> in(n), out(n), expected(n);
    course::fill_uniform_device(in.data(), n, course::derive_seed(options.seed, "bench-lab04"), -1.0f, 1.0f);

    // The expected transpose is the naive kernel's, checked once, element by element, on the host.
    lab04::baseline::naive_transpose(in.data(), expected.data(), side, side);
    {
        const std::vector<float> h_in = in.download(), h_out = expected.download();
        for (std::size_t r = 0; r < std::size_t(side); ++r)
            for (std::size_t col = 0; col < std::size_t(side); ++col)
                if (std::memcmp(&h_out[col * side + r], &h_in[r * side + col], sizeof(float)) != 0)
                    throw std::runtime_error("Lab 04: the naive transpose is wrong at out[" + std::to_string(col) +
                                             "][" + std::to_string(r) + "], so no reference result");
    }

    auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // NaN: an element left unwritten fails
    Case c;
    c.lab = "04";
    c.name = "8192^2 transpose";
    c.bound = Bound::Memory;
    c.work = 2.0 * static_cast<double>(n) * sizeof(float);  // read once, written once
    c.contenders = {
        {"reference", "lab04::transpose (solution)", [&] { lab04::transpose(in.data(), out.data(), side, side); },
         poison, [&] { return check_array("out", out.data(), expected.data(), n, 0.0f, "the transpose"); }},
        {"naive", "lab04::baseline::naive_transpose",
         [&] { lab04::baseline::naive_transpose(in.data(), out.data(), side, side); }, poison,
         [&] { return check_array("out", out.data(), expected.data(), n, 0.0f, "the transpose"); }},
        // The peer moves the same bytes without transposing: its output is a copy of the input.
        {"peer", "cudaMemcpy D2D", [&] { lab04::baseline::device_copy(in.data(), out.data(), n); }, poison,
         [&] { return check_array("the copy", out.data(), in.data(), n, 0.0f, "its source"); }},
    };
    return time_case(c, options);
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab04("04", bench::lab04);
