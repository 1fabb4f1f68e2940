// Lab 05 in the benchmark: 8192 x 8192 convolutions with 3x3, 5x5 and 7x7 filters (kBenchSide and
// kFilterSizes in autograder/labs/05-halo-convolution/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"         // lab05::baseline (autograder/labs/05-halo-convolution)
#include "halo_convolution.cuh"  // lab05::set_filter and lab05::convolve, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace bench {

namespace {

constexpr int kSide = 8192;  // as the speed checks: 256 MB in, 256 MB out, far beyond L2
constexpr std::size_t kPixels = std::size_t(kSide) * kSide;

// Pixel (x, y) of the convolution of the host image @p in with @p w (K x K), in double, zero outside.
double convolve_at(const std::vector<float>& in, const std::vector<float>& w, int K, int x, int y) {
    const int r = K / 2;
    double sum = 0.0;
    for (int i = 0; i < K; ++i)
        for (int j = 0; j < K; ++j) {
            const int yy = y + i - r, xx = x + j - r;
            if (yy >= 0 && yy < kSide && xx >= 0 && xx < kSide)
                sum += double(w[std::size_t(i) * K + j]) * in[std::size_t(yy) * kSide + xx];
        }
    return sum;
}

std::vector<Row> one_filter(int K, const Options& options) {
    course::DeviceBuffer<float> in(kPixels), out(kPixels), expected(kPixels);
    course::fill_uniform_device(in.data(), kPixels, course::derive_seed(options.seed, "bench-lab05-image", K), -1.0f, 1.0f);
    const std::vector<float> weights =
        course::uniform_floats(std::size_t(K) * K, course::derive_seed(options.seed, "bench-lab05-filter", K));
    lab05::set_filter(weights.data(), K);            // the solution's constant memory
    lab05::baseline::set_filter(weights.data(), K);  // the baseline's own

    // The speed checks' bound: both are float sums within gamma_{K*K} * sum|w| of the exact result (inputs in
    // [-1, 1)), so they differ by at most twice that; 4 K^2 u sum|w| leaves a factor of two on top.
    double abs_sum = 0.0;
    for (float v : weights) abs_sum += std::fabs(v);
    const float atol = static_cast<float>(4.0 * K * K * std::ldexp(1.0, -24) * abs_sum);

    // The expected image is the naive kernel's, checked on the host (in double) at the corners and at 4096
    // random pixels.
    lab05::baseline::naive_convolve(in.data(), expected.data(), kSide, kSide, K);
    {
        const std::vector<float> h_in = in.download(), h_out = expected.download();
        const std::uint64_t seed = course::derive_seed(options.seed, "bench-lab05-probe", K);
        for (int p = 0; p < 4096 + 4; ++p) {
            const int x = p < 4 ? (p % 2) * (kSide - 1) : course::integer_at(seed, 2 * p, 0, kSide - 1);
            const int y = p < 4 ? (p / 2) * (kSide - 1) : course::integer_at(seed, 2 * p + 1, 0, kSide - 1);
            const double want = convolve_at(h_in, weights, K, x, y);
            const float got = h_out[std::size_t(y) * kSide + x];
            if (!(std::fabs(double(got) - want) <= atol))
                throw std::runtime_error("Lab 05 (K = " + std::to_string(K) + "): the naive convolution gives " +
                                         std::to_string(got) + " at out[" + std::to_string(y) + "][" +
                                         std::to_string(x) + "], not " + std::to_string(want) +
                                         ", so no reference result");
        }
    }

    auto poison = [&] { out.fill_bytes(course::kPoisonByte); };  // NaN: a pixel left unwritten fails
    const std::string k = std::to_string(K) + "x" + std::to_string(K);
    Case c;
    c.lab = "05";
    c.name = "8192^2 convolution " + k;
    c.bound = Bound::Memory;
    c.work = 2.0 * static_cast<double>(kPixels) * sizeof(float);  // every pixel read once and written once
    c.contenders = {
        {"reference", "lab05::convolve (solution)", [&] { lab05::convolve(in.data(), out.data(), kSide, kSide, K); },
         poison, [&] { return check_array("out", out.data(), expected.data(), kPixels, atol, "the naive kernel's"); }},
        {"naive", "lab05::baseline::naive_convolve",
         [&] { lab05::baseline::naive_convolve(in.data(), out.data(), kSide, kSide, K); }, poison,
         [&] { return check_array("out", out.data(), expected.data(), kPixels, 0.0f, "its first result"); }},
        // The peer moves the same bytes and computes nothing: its output is a copy of the input.
        {"peer", "cudaMemcpy D2D", [&] { lab05::baseline::copy(in.data(), out.data(), kPixels * sizeof(float)); },
         poison, [&] { return check_array("the copy", out.data(), in.data(), kPixels, 0.0f, "its source"); }},
    };
    return time_case(c, options);
}

}  // namespace

std::vector<Row> lab05(const Options& options) {
    std::vector<Row> rows;
    for (int K : {3, 5, 7}) {
        const std::vector<Row> more = one_filter(K, options);  // each filter's buffers freed before the next
        rows.insert(rows.end(), more.begin(), more.end());
    }
    return rows;
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab05("05", bench::lab05);
