// Lab 03 in the benchmark: C = A·B at 4096^3 in FP32 (kBenchSize in autograder/labs/03-tiled-matmul/checks.cpp).
#include "bench.hpp"

#include "baselines.cuh"     // lab03::baseline (autograder/labs/03-tiled-matmul)
#include "tiled_matmul.cuh"  // lab03::tiled_matmul, the reference solution's

#include "device_buffer.hpp"
#include "guarded_buffer.hpp"
#include "random.hpp"

#include <stdexcept>

namespace bench {

std::vector<Row> lab03(const Options& options) {
    constexpr int s = 4096;  // M = N = K, as the speed checks: each matrix 64 MiB, larger than L2
    constexpr std::size_t n = std::size_t(s) * s;
    course::DeviceBuffer<float> A(n), B(n), C(n), expected(n);
    // The speed checks' exact probe: A holds integers in [-4095, 4095], B -1, 0 and 1, so every partial sum
    // is an integer below 2^24 that FP32 holds exactly in any order: FP32 kernels agree bit for bit, and a
    // TF32 one (rounding A to 11 bits) does not.
    course::fill_integers_device(A.data(), n, course::derive_seed(options.seed, "bench-lab03-A"), -4095, 4095);
    course::fill_integers_device(B.data(), n, course::derive_seed(options.seed, "bench-lab03-B"), -1, 1);
    lab03::baseline::CublasSgemm cublas;

    // The expected product is cuBLAS's; the naive kernel must give the very same one.
    cublas(A.data(), B.data(), expected.data(), s, s, s);
    lab03::baseline::naive_matmul(A.data(), B.data(), C.data(), s, s, s);
    if (const std::string wrong = check_array("C", C.data(), expected.data(), n, 0.0f, "cublasSgemm's (naive kernel)");
        !wrong.empty())
        throw std::runtime_error("Lab 03: the baselines disagree, so no reference result: " + wrong);

    auto poison = [&] { C.fill_bytes(course::kPoisonByte); };  // NaN: an element left unwritten fails
    auto check = [&](const std::string& who) {
        return [&, who] { return check_array("C", C.data(), expected.data(), n, 0.0f, "cublasSgemm's exact result (" + who + ")"); };
    };
    Case c;
    c.lab = "03";
    c.name = "4096^3 SGEMM FP32";
    c.bound = Bound::Compute;
    c.work = 2.0 * double(s) * double(s) * double(s);  // a multiply and an add for every (i, j, k)
    c.contenders = {
        {"reference", "lab03::tiled_matmul (solution)",
         [&] { lab03::tiled_matmul(A.data(), B.data(), C.data(), s, s, s); }, poison, check("solution")},
        {"naive", "lab03::baseline::naive_matmul",
         [&] { lab03::baseline::naive_matmul(A.data(), B.data(), C.data(), s, s, s); }, poison, check("naive kernel")},
        {"peer", "cublasSgemm FP32 (no TF32)", [&] { cublas(A.data(), B.data(), C.data(), s, s, s); }, poison,
         check("cuBLAS")},
    };
    return time_case(c, options);
}

}  // namespace bench

// Found by the bench at its start (bench.hpp, Register).
const bench::Register registered_lab03("03", bench::lab03);
