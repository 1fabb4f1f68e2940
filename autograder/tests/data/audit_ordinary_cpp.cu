// Audit sample: ordinary C++ in a lab's host code, which the audit must allow — standard exceptions
// thrown and caught by type (by reference and by value, rethrown, caught as std::exception or with
// ...), the lab's own exception type, an int and a string literal thrown and caught, dynamic_cast,
// <algorithm> and <numeric> templates, lambdas, std::array, std::vector, std::string messages
// (std::to_string of an integer and of a double), std::min and std::max, std::sin and std::cos of one
// value (which GCC merges into sincos), cudaMemset3D and cudaMemcpy3D, a __managed__ variable that only
// device code touches, and two __device__ helpers whose host stand-ins are identical (nvcc makes one per
// helper, each calling exit; GCC's identical-code folding would make one call the other). Also: an
// exception type with two bases (its destructor's thunk), one with a virtual base (a construction vtable),
// a reference bound to a temporary at namespace scope, cudaError_t thrown and caught by type,
// std::exception_ptr, sprintf and the C string functions, __builtin_popcount
// (a helper of GCC's), std::llrint, and cudaMemcpyPeerAsync on one device.
#include "cuda_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace lab01 {
struct Launch {
    static constexpr int kThreads = 256;
};
__managed__ int g_launches = 0;  // touched by device code only
__device__ int lane_of(int t) { return t & 31; }
__device__ int warp_of(int t) { return t & 31; }
__global__ void __launch_bounds__(Launch::kThreads) scale(float* x, int n, float by) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= by + static_cast<float>(lane_of(i) - warp_of(i));
    if (i == 0) ++g_launches;
}

namespace {
// A helper that refuses what it cannot use, with each standard exception a lab might throw.
int checked(int v) {
    if (v < 0) throw std::invalid_argument("checked: " + std::to_string(v) + " is negative");
    if (v > (1 << 30)) throw std::out_of_range("checked: too large");
    if (v == 3) throw std::runtime_error("checked: three, or " + std::to_string(v * 0.5));
    if (v == 5) throw std::length_error("checked: five");
    if (v == 7) throw std::logic_error("checked: seven");
    if (v == 11) throw std::bad_alloc();
    return v;
}

struct TooFew : std::runtime_error {  // the lab's own exception type
    using std::runtime_error::runtime_error;
};
struct Tagged {
    virtual ~Tagged() = default;
};
struct BadCount : std::invalid_argument, Tagged {  // two bases: a thunk of its destructor
    using std::invalid_argument::invalid_argument;
};
struct Error : virtual std::exception {};  // a virtual base: construction vtables
struct BadSize : Error {
    const char* what() const noexcept override { return "bad size"; }
};
}  // namespace
inline const std::string& kLabName = std::string("sum reduction");  // a reference's temporary

int run(float* x, int n) {
    int code = 0;
    try { code = checked(n); } catch (const std::invalid_argument&) { code = -1; }
    try { code += checked(n - 1); } catch (const std::out_of_range& e) { code += static_cast<int>(e.what()[0]); }
    try { code += checked(n - 2); } catch (std::runtime_error e) { code -= static_cast<int>(std::string(e.what()).size()); }
    try { code += checked(n - 3); } catch (const std::length_error&) { code -= 3; }
    try { code += checked(n - 4); } catch (const std::bad_alloc&) { code -= 4; }
    try { code += checked(n - 5); } catch (const std::logic_error&) { code -= 5; }
    try { code += checked(n - 6); } catch (const std::exception& e) {
        if (dynamic_cast<const std::runtime_error*>(&e) != nullptr) std::printf("%s\n", e.what());
    }
    try { code += checked(n - 7); } catch (...) { code -= 7; }
    try { if (n == 13) throw 13; } catch (int v) { code += v; }
    try { if (n == 14) throw "fourteen"; } catch (const char* what) { std::printf("%s\n", what); }
    try {
        try { if (n < 4) throw TooFew("fewer than 4"); } catch (const TooFew&) { throw; }
    } catch (const TooFew& e) {
        std::printf("%s\n", e.what());
    }
    try { if (n == 15) throw BadCount("fifteen"); } catch (const Tagged&) { code -= 15; }
    try { if (n == 16) throw BadSize(); } catch (const Error& e) { std::printf("%s %s\n", e.what(), kLabName.c_str()); }
    try { if (n == 17) throw cudaErrorInvalidValue; } catch (cudaError_t e) { code += static_cast<int>(e); }
    static std::exception_ptr failure;
    try { if (n == 18) throw std::runtime_error("eighteen"); } catch (...) { failure = std::current_exception(); }
    try { if (failure && n == 19) std::rethrow_exception(failure); } catch (const std::exception&) { code -= 19; }
    char message[64];
    std::sprintf(message, "n = %d", n);
    char joined[96] = "run: ";
    std::strncat(joined, message, sizeof joined - std::strlen(joined) - 1);
    if (std::strchr(joined, '=') == nullptr) std::printf("%s\n", joined);
    code += __builtin_popcount(static_cast<unsigned>(n)) + static_cast<int>(std::llrint(std::log2(1.0 + n)));
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaMemcpyPeerAsync(x, device, x, device, sizeof(float), 0));
    static double phase = 0.0;
    phase += 0.001;
    const double c = std::cos(phase), s = std::sin(phase);
    if (c * c + s * s < 0.5) std::printf("math broke\n");
    CUDA_CHECK(cudaMemset3D(make_cudaPitchedPtr(x, sizeof(float), 1, 1), 0, make_cudaExtent(sizeof(float), 1, 1)));
    cudaMemcpy3DParms copy{};
    copy.srcPtr = make_cudaPitchedPtr(x, sizeof(float), 1, 1);
    copy.dstPtr = make_cudaPitchedPtr(x, sizeof(float), 1, 1);
    copy.extent = make_cudaExtent(sizeof(float), 1, 1);
    copy.kind = cudaMemcpyDeviceToDevice;
    CUDA_CHECK(cudaMemcpy3D(&copy));

    // <algorithm> and <numeric> on std::vector and std::array, with lambdas.
    std::vector<double> times(static_cast<std::size_t>(std::max(n, 1)));
    std::iota(times.begin(), times.end(), 1.0);
    std::sort(times.begin(), times.end(), [](double a, double b) { return a > b; });
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    std::stable_sort(times.begin(), times.end());
    const double total = std::accumulate(times.begin(), times.end(), 0.0);
    const auto biggest = std::max_element(times.begin(), times.end());
    std::array<int, 8> ways{};
    std::iota(ways.begin(), ways.end(), 1);
    std::reverse(ways.begin(), ways.end());
    const int most = *std::max_element(ways.begin(), ways.end());
    const int sum = std::accumulate(ways.begin(), ways.end(), 0, [](int a, int b) { return a + b; });
    std::vector<int> kept;
    std::copy_if(ways.begin(), ways.end(), std::back_inserter(kept), [most](int w) { return w < most; });
    code += std::min(most, sum) + std::max(static_cast<int>(total), static_cast<int>(*biggest)) +
            static_cast<int>(kept.at(0)) + ways.at(static_cast<std::size_t>(n) % ways.size());

    CUDA_CHECK(cudaMemset(x, 0, sizeof(float)));
    scale<<<course::ceil_div(n, 256), 256>>>(x, n, 2.0f);
    CUDA_CHECK_LAUNCH();
    return code;
}
}  // namespace lab01
