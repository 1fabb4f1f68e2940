// Attack (Lab 01, round 43, all static layers): attack43_raw_string_in_attribute_args_hides_incbin's bypass of the
// region rules and the .ii scan (a raw string in `[[gnu::aligned(sizeof(R"x(")x"))]]` desyncs both attribute-list
// readers; the section string starts with `# \"` so that, to the .ii reader, everything after is a string and
// `.section` in it is never read as a name), carrying assembly that defeats the object audit's new checks:
// - a local function, typed and sized, named `_ZL31__nv_cudaEntityRegisterCallbackPPv`: one of nvcc's own
//   names that registration_outside_nvcc (audit.cpp:294) trusts, but which GCC inlines away at -O3, so the name
//   is free. It calls __cudaRegisterFatBinary and __cudaRegisterFatBinaryEnd (attack12's payload: a fatbinary of
//   the student's, whose PTX the audit never reads; here a zero pointer stands in for it).
// - a function named `_GLOBAL__sub_I_zz` (a name GCC gives its constructors, trusted by prefix in
//   unexpected_constructors, audit.cpp:856) that jumps to it, listed in `.init_array`: it runs before main().
// All code lies in a function's extent (code_outside_functions passes), each symbol is a sized function at its
// own start (labels_in_code passes), both names are local (nm -g never shows them).
// Evidence: grade --labs-dir ... --allow-no-gpu --lab 01: "compiles", "passed: the region rules", "passed: the
// audit ... 38 functions and objects"; objdump -t of the slot object: `l F .text 0x17
// _ZL31__nv_cudaEntityRegisterCallbackPPv`, `l F .text 0x2 _GLOBAL__sub_I_zz`; objdump -r: .init_array holds
// .text.startup and .text+0x3d7 (_GLOBAL__sub_I_zz); both are in graders/lab01_slot1_host.
// What should catch it: the .ii/region fix above; and in the audit, trust no name the assembler can write:
// nvcc's functions are the ones whose address nvcc's data or registration call refers to (the .init_array entry
// of __sti__, the atexit argument), there is exactly one constructor per kind, and a _GLOBAL__sub_I_ function is
// accepted only if its name matches the file's (_GLOBAL__sub_I_<mangled file>) and it is the only one.
// Expected: refused_region (or forbidden_symbol).
// The regions not given here are the solution's; this one is the solution's with the trick added.

    // BEGIN STUDENT REGION launch
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomicAdds reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomicAdds reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    [[gnu::aligned(sizeof(R"x(")x"))]] static int pad = 0; [ CUDARTAPI [gnu::section(".rodata.notes\n# \"\n .text\n .type _ZL31__nv_cudaEntityRegisterCallbackPPv, @function\n_ZL31__nv_cudaEntityRegisterCallbackPPv:\n push %rbx\n lea .Lfw(%rip), %rdi\n call __cudaRegisterFatBinary\n mov %rax, %rdi\n call __cudaRegisterFatBinaryEnd\n pop %rbx\n ret\n .size _ZL31__nv_cudaEntityRegisterCallbackPPv, .-_ZL31__nv_cudaEntityRegisterCallbackPPv\n .type _GLOBAL__sub_I_zz, @function\n_GLOBAL__sub_I_zz:\n jmp _ZL31__nv_cudaEntityRegisterCallbackPPv\n .size _GLOBAL__sub_I_zz, .-_GLOBAL__sub_I_zz\n .section .init_array,\"aw\"\n .align 8\n .quad _GLOBAL__sub_I_zz\n .section .rodata.notes\n.Lfw: .quad 0\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
    if (hold[0] != 0 || pad != 0) printf("never\n");
    // END STUDENT REGION
