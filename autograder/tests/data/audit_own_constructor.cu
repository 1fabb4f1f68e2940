// Audit sample: a function of the lab's own put in .init_array by a section attribute (a constructor in
// all but name), and one in .fini_array: each must be refused as a constructor no compiler made, however
// the source spelled the attribute (the rules on the source do not run on this sample).
#include "cuda_check.hpp"

#include <cstdio>

namespace lab01 {
void early() { std::puts("before main()"); }
void late() { std::puts("after main()"); }
[[gnu::section(".init_array"), gnu::used]] static void (*run_early)() = early;
[[gnu::section(".fini_array"), gnu::used]] static void (*run_late)() = late;
__global__ void twice(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
void run(float* x, int n) {
    twice<<<course::ceil_div(n, 256), 256>>>(x, n);
    CUDA_CHECK_LAUNCH();
}
}  // namespace lab01
