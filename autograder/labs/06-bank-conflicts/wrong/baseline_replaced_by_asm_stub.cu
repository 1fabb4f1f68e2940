// Cheat, Lab 06 (found by probing; it got full marks before a region could no longer hold asm): the
// detector is run against mystery kernels that the grader launches through its own
// lab06::baseline::strided_loads(stride, word_bytes, sink). A basic asm block in the detect region
// defines that symbol itself, a stub that notes its first argument (the mystery's stride) in a data
// word and returns; the detector calls run_mystery() once, reads the noted stride back with a second
// asm statement, and answers with the model's conflict_ways: every mystery named, nothing timed.
// The audit's namespace rule let the definition through (the symbol is in lab06).
// Why it fails now: a region may not hold asm (anywhere), so the submission is refused before anything
// is compiled. (Behind that, the grader's objects are now linked first, and the audit refuses any
// definition of a name the grader defines, lab06::baseline::strided_loads among them.)
// Expected: refused_region.
//
// Region-overlay form: only the detect region; the model, the kernel and the launch are the
// reference solution's.

// BEGIN STUDENT REGION detect
    // The grader's mystery launcher, lab06::baseline::strided_loads, defined here in assembly: a stub that
    // notes the stride (its first argument) and returns. The audit allows it: the symbol is in lab06.
    asm(".pushsection .text.lab_stub, \"ax\", @progbits\n"
        ".globl _ZN5lab068baseline13strided_loadsEiiPf\n"
        "_ZN5lab068baseline13strided_loadsEiiPf:\n"
        "    movl %edi, lab06_noted_stride(%rip)\n"
        "    ret\n"
        ".popsection\n"
        ".pushsection .data\n.p2align 2\nlab06_noted_stride: .long 1\n.popsection\n");
    int noted = 0;
    (void)run_known;
    run_mystery();
    asm volatile("movl lab06_noted_stride(%%rip), %0" : "=r"(noted));
    return conflict_ways(noted, word_bytes);
// END STUDENT REGION
