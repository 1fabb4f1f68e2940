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
