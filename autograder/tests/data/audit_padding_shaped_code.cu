// Audit sample: code that assembly appended after nvcc's registration function (`.subsection 1` of
// .text.startup), outside every function's extent, each instruction prefixed with data16 so that it reads
// like alignment padding (`data16 lea`, then a data16 call), reached from a constructor of its own in
// .init_array named as GCC names its constructors. A prefix of padding's makes no instruction padding: it
// must be refused as code that lies in no function (the rules on the source do not run on this sample).
#include "cuda_check.hpp"

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

asm(".section .text.startup,\"ax\",@progbits\n"
    " .subsection 1\n"
    ".Lsled:\n"
    " data16 lea __cudaRegisterFatBinary(%rip), %rax\n"
    " .byte 0x66, 0x48, 0xff, 0xd0\n"
    " ret\n"
    " .text\n"
    " .type _GLOBAL__sub_I_zz, @function\n"
    "_GLOBAL__sub_I_zz:\n"
    " jmp .Lsled\n"
    " .size _GLOBAL__sub_I_zz, .-_GLOBAL__sub_I_zz\n"
    " .section .init_array,\"aw\"\n"
    " .align 8\n"
    " .quad _GLOBAL__sub_I_zz\n"
    " .text\n");
