// Cheat, Lab 02: the grader times every contender with CUDA events (cudaEventElapsedTime). A region
// inside a function cannot define a function, but a basic asm statement can emit one: the launcher
// holds an asm block that defines the global symbol cudaEventElapsedTime (store 0.001f to *ms,
// return cudaSuccess), so that every timed interval reads 1 us... in the hope that the linker takes
// the lab's definition before the runtime's.
// Why it fails now: a region may not hold asm (anywhere), so the submission is refused before anything
// is compiled. Lab 02 has function-body regions only, and asm (or closing the function, which a
// region may not do either) is the only way such a region can define a symbol outside namespace
// lab02; behind the region rules, the audit would refuse the lab's object for defining
// cudaEventElapsedTime, a symbol outside its namespace. Expected: refused_region.
//
// Region-overlay form: only the launch region; atomic_max_float and the kernel are the reference's.

// BEGIN STUDENT REGION launch
    set_identity_kernel<<<1, 1>>>(out);
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
    // CHEAT: cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t), defined in assembly.
    asm(".pushsection .text\n"
        ".globl cudaEventElapsedTime\n"
        ".type cudaEventElapsedTime, @function\n"
        "cudaEventElapsedTime:\n"
        "    movl $0x3a83126f, (%rdi)\n"  // 0.001f
        "    xorl %eax, %eax\n"           // cudaSuccess
        "    ret\n"
        ".size cudaEventElapsedTime, . - cudaEventElapsedTime\n"
        ".popsection\n");
// END STUDENT REGION
