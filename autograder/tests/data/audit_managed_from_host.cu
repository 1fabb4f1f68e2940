// Audit sample: host code that touches a __managed__ variable (nvcc loads it from the lab's function with
// __cudaInitModule): refused as managed memory, with that reason; device code alone may touch one.
#include "cuda_check.hpp"

namespace lab01 {
__managed__ int g_calls = 0;
__global__ void twice(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
void run(float* x, int n) {
    ++g_calls;
    twice<<<course::ceil_div(n, 256), 256>>>(x, n);
    CUDA_CHECK_LAUNCH();
}
}  // namespace lab01
