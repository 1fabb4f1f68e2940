// Audit sample: a function of assembly's making that takes the name of nvcc's callback for the kernels'
// registration (_ZL31__nv_cudaEntityRegisterCallbackPPv, free where the compiler inlined nvcc's) and
// registers a fatbinary of its own: it must be refused, since the name alone proves nothing (the rules on
// the source, which refuse the asm, do not run on this sample).
#include "cuda_check.hpp"

asm(".text\n"
    ".type _ZL31__nv_cudaEntityRegisterCallbackPPv, @function\n"
    "_ZL31__nv_cudaEntityRegisterCallbackPPv:\n"
    "  sub $8, %rsp\n"
    "  call __cudaRegisterFatBinary@PLT\n"
    "  call __cudaRegisterFunction@PLT\n"
    "  add $8, %rsp\n"
    "  ret\n"
    ".size _ZL31__nv_cudaEntityRegisterCallbackPPv, .-_ZL31__nv_cudaEntityRegisterCallbackPPv\n");

namespace lab01 {
__global__ void twice(float* x, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}
void run(float* x, int n) {
    twice<<<course::ceil_div(n, 256), 256>>>(x, n);
    CUDA_CHECK_LAUNCH();
}
}  // namespace lab01
