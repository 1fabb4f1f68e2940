// Seeded random data (see random.hpp). Host and device share hash64, so both produce identical arrays.
#include "cuda_check.hpp"
#include "random.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

namespace course {

std::uint64_t keyed_hash64(std::uint64_t k0, std::uint64_t k1, std::string_view message) {
    // SipHash-2-4 (Aumasson and Bernstein): four lanes of state, two rounds a 64-bit word of the message,
    // four at the end; the message read as little-endian words, the last holding its length's low byte.
    std::uint64_t v0 = k0 ^ 0x736f6d6570736575ull, v1 = k1 ^ 0x646f72616e646f6dull;
    std::uint64_t v2 = k0 ^ 0x6c7967656e657261ull, v3 = k1 ^ 0x7465646279746573ull;
    const auto rotl = [](std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
    const auto round = [&] {
        v0 += v1, v1 = rotl(v1, 13), v1 ^= v0, v0 = rotl(v0, 32);
        v2 += v3, v3 = rotl(v3, 16), v3 ^= v2;
        v0 += v3, v3 = rotl(v3, 21), v3 ^= v0;
        v2 += v1, v1 = rotl(v1, 17), v1 ^= v2, v2 = rotl(v2, 32);
    };
    const auto absorb = [&](std::uint64_t m) {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    };
    const std::size_t whole = message.size() / 8 * 8;
    for (std::size_t i = 0; i < whole; i += 8) {
        std::uint64_t m = 0;
        for (int b = 0; b < 8; ++b) m |= std::uint64_t(static_cast<unsigned char>(message[i + b])) << (8 * b);
        absorb(m);
    }
    std::uint64_t last = std::uint64_t(message.size() & 0xff) << 56;
    for (std::size_t b = 0; whole + b < message.size(); ++b)
        last |= std::uint64_t(static_cast<unsigned char>(message[whole + b])) << (8 * b);
    absorb(last);
    v2 ^= 0xff;
    for (int r = 0; r < 4; ++r) round();
    return v0 ^ v1 ^ v2 ^ v3;
}

namespace {
__global__ void fill_uniform_kernel(float* d, std::size_t n, std::uint64_t seed, float lo, float hi) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        d[i] = uniform_at(seed, i, lo, hi);
}
__global__ void fill_integers_kernel(float* d, std::size_t n, std::uint64_t seed, int lo, int hi) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x)
        d[i] = static_cast<float>(integer_at(seed, i, lo, hi));
}
unsigned fill_grid(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>(ceil_div(n, 256), 65535)); }
}  // namespace

namespace {
// Fills v[i] = value(i) for every i, split over the CPU's cores for large inputs. Every element depends
// on its index alone, so the result is the same however the work is split.
template <class F>
void fill_by_index(std::vector<float>& v, F value) {
    const std::size_t n = v.size();
    constexpr std::size_t kSerialBelow = std::size_t(1) << 20;
    const std::size_t workers =
        n < kSerialBelow ? 1 : std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), 16);
    auto part = [&](std::size_t w) {
        const std::size_t begin = n / workers * w, end = w + 1 == workers ? n : n / workers * (w + 1);
        for (std::size_t i = begin; i < end; ++i) v[i] = value(i);
    };
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(part, w);
    part(0);
    for (auto& t : threads) t.join();
}
}  // namespace

std::vector<float> uniform_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
    std::vector<float> v(n);
    fill_by_index(v, [=](std::size_t i) { return uniform_at(seed, i, lo, hi); });
    return v;
}

std::vector<float> integer_floats(std::size_t n, std::uint64_t seed, int lo, int hi) {
    std::vector<float> v(n);
    fill_by_index(v, [=](std::size_t i) { return static_cast<float>(integer_at(seed, i, lo, hi)); });
    return v;
}

void fill_uniform_device(float* d, std::size_t n, std::uint64_t seed, float lo, float hi, cudaStream_t stream) {
    if (n == 0) return;
    fill_uniform_kernel<<<fill_grid(n), 256, 0, stream>>>(d, n, seed, lo, hi);
    CUDA_CHECK_LAUNCH();
}

void fill_integers_device(float* d, std::size_t n, std::uint64_t seed, int lo, int hi, cudaStream_t stream) {
    if (n == 0) return;
    fill_integers_kernel<<<fill_grid(n), 256, 0, stream>>>(d, n, seed, lo, hi);
    CUDA_CHECK_LAUNCH();
}

std::optional<std::uint64_t> parse_seed(const std::string& text) {
    if (text.empty() || text[0] == '-' || text[0] == '+' || text[0] == ' ') return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    if (errno != 0 || end == text.c_str() || *end != '\0') return std::nullopt;
    return v;
}

std::uint64_t seed_from_env_or_entropy(const char* env_var) {
    if (const char* s = std::getenv(env_var); s && *s) {
        if (const auto seed = parse_seed(s)) return *seed;
        std::fprintf(stderr, "%s=%s is not a seed (a non-negative integer); using a fresh one\n", env_var, s);
    }
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace course
