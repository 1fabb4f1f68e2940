// Cheat, Lab 08: the grader times every contender through its own clock and CUDA events
// (cudaEventElapsedTime). A region inside a function cannot define a function, but a basic asm statement can
// emit one: the launcher holds an asm block that defines the global symbol cudaEventElapsedTime (store 0.001f
// to *ms, return cudaSuccess), in the hope that the linker takes the lab's definition before the runtime's.
// Why it fails now: a region may not hold asm (anywhere), so the submission is refused before anything is
// compiled; behind the region rules, the audit would refuse the lab's object for defining
// cudaEventElapsedTime, a symbol outside its namespace. Expected: refused_region.
//
// Region-overlay form: only the launch region; the other regions are the reference solution's.

// BEGIN STUDENT REGION launch
    const std::size_t tiles = course::ceil_div(n, std::size_t(kTileSize));
    const std::size_t bytes = kStatusOffset + tiles * sizeof(unsigned long long);
    void* share = scratch(level, bytes);
    CUDA_CHECK(cudaMemsetAsync(share, 0, bytes));
    scan_tiles_kernel<T><<<static_cast<unsigned>(tiles), kBlockSize>>>(in, out, n, share);
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
