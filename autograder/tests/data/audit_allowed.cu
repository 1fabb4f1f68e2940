// Audit sample: what a lab may do — launch kernels, use device memory, query the device, throw, print.
#include "cuda_check.hpp"

#include <cstdio>
#include <stdexcept>

namespace lab01 {
__global__ void twice(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * sqrtf(x[i]);
}
void run(float* x, int n) {
    if (n < 1) throw std::invalid_argument("n must be at least 1");
    static const int sms = [] {
        int device = 0, count = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
        return count;
    }();
    std::printf("%d SMs\n", sms);
    CUDA_CHECK(cudaMemsetAsync(x, 0, sizeof(float)));
    twice<<<course::ceil_div(n, 256), 256>>>(x, n);
    CUDA_CHECK_LAUNCH();
}
}  // namespace lab01
