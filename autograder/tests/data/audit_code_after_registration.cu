// Audit sample: code that assembly appended to the end of .text.startup (`.subsection 1`), after nvcc's
// registration function, with no symbol of its own, and listed in .init_array by section and offset: the
// disassembler shows it as nvcc's function's, whose references (atexit, the registration glue) the audit
// trusts. It must be refused as code outside every function and as a constructor no compiler made,
// whatever spelling got the assembly past the rules on the source (the region rules and the
// preprocessed-source scan do not run on this sample).
#include "cuda_check.hpp"

#include <cstdio>

namespace lab01 {
void before_main() { std::puts("before main()"); }
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
    ".Lappended:\n"
    " sub $8, %rsp\n"
    " call _ZN5lab0111before_mainEv\n"
    " add $8, %rsp\n"
    " ret\n"
    " .section .init_array,\"aw\"\n"
    " .align 8\n"
    " .quad .Lappended\n"
    " .text\n");
