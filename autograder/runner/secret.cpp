// The instructor's secret (see secret.hpp).
#include "secret.hpp"

#include <cstdio>

namespace grading {

namespace {
std::uint64_t rotl(std::uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

struct SipState {
    std::uint64_t v0, v1, v2, v3;
    void round() {
        v0 += v1, v1 = rotl(v1, 13), v1 ^= v0, v0 = rotl(v0, 32);
        v2 += v3, v3 = rotl(v3, 16), v3 ^= v2;
        v0 += v3, v3 = rotl(v3, 21), v3 ^= v0;
        v2 += v1, v1 = rotl(v1, 17), v1 ^= v2, v2 = rotl(v2, 32);
    }
    void absorb(std::uint64_t m) {
        v3 ^= m;
        round(), round();
        v0 ^= m;
    }
};

std::uint64_t little_endian(const unsigned char* p, std::size_t n) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(p[i]) << (8 * i);
    return v;
}
}  // namespace

std::uint64_t siphash24(std::uint64_t k0, std::uint64_t k1, std::string_view message) {
    SipState s{k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL, k0 ^ 0x6c7967656e657261ULL,
               k1 ^ 0x7465646279746573ULL};
    const auto* p = reinterpret_cast<const unsigned char*>(message.data());
    const std::size_t n = message.size(), whole = n / 8 * 8;
    for (std::size_t i = 0; i < whole; i += 8) s.absorb(little_endian(p + i, 8));
    s.absorb(little_endian(p + whole, n - whole) | (std::uint64_t(n & 0xff) << 56));
    s.v2 ^= 0xff;
    s.round(), s.round(), s.round(), s.round();
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

std::uint64_t secret_for_run(const std::string& secret_text, std::uint64_t seed) {
    const std::uint64_t k0 = siphash24(0x636f75727365206bULL, 0x6579207a65726f30ULL, secret_text);
    const std::uint64_t k1 = siphash24(0x636f75727365206bULL, 0x6579207a65726f31ULL, secret_text);
    std::string message(8, '\0');
    for (int i = 0; i < 8; ++i) message[i] = static_cast<char>((seed >> (8 * i)) & 0xff);
    return siphash24(k0, k1, message);
}

std::string secret_line(std::uint64_t value) {
    char text[40];
    std::snprintf(text, sizeof text, "secret %016llx\n", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace grading
