// Attack (Lab 01, static layers, against the audit's rule that only nvcc's own code may call the
// registration glue, registration_outside_nvcc): the twelfth round's fatbinary (attack12_fatbin_via_nvcc_glue:
// plain PTX of a kernel lab01::stamp that reads %globaltimer, held as a string literal, registered with
// __cudaRegisterFatBinary / __cudaRegisterFunction / __cudaRegisterFatBinaryEnd and launched with
// cudaLaunchKernel), with its glue calls now placed after a label that bears the name of one of nvcc's own
// file-local functions. The audit attributes each relocation to the last symbol objdump prints before it
// (parse_objdump, audit.cpp:625-639) and lets nvcc's names refer to the glue (nvcc_own, audit.cpp:292-294, 307).
// At -O3 nvcc's _ZL31__nv_cudaEntityRegisterCallbackPPv is inlined and never emitted, so the name is free:
// an `asm volatile("_ZL31__nv_cudaEntityRegisterCallbackPPv:")` inside the lab's lambda (inlined into
// lab01::sum_reduce) makes a local symbol there, and the three glue relocations that follow are counted as
// nvcc's. The asm (and the #line that hides it from the .ii scan) is hidden from the region rules by the
// backslash-CR-LF splice of Lab 01 attack13_crlf_splice_hides_incbin (see there); the ADL / if-constexpr trick
// of attack12 keeps EDG from seeing the glue calls.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01): "compiles", region rules and audit "passed"
// ("each of the 40 functions and objects it uses is allowed"); objdump -dr of lab01_slot2_code's object:
//   00000000000003b7 <_ZL31__nv_cudaEntityRegisterCallbackPPv>:
//   3bf: R_X86_64_PLT32 __cudaRegisterFatBinary-0x4  (and __cudaRegisterFunction, __cudaRegisterFatBinaryEnd)
// inside lab01::sum_reduce (0x250..); `strings -a` shows "mov.u64 %rd1, %globaltimer;" in the object's data,
// while no .ptx file of graded/lab01_slot2/keep names %globaltimer (device code the audit never read).
// The file holds one CR byte, at the end of the line that ends in a backslash.
// Caught now (refused_region): the region rules refuse a backslash before a line end, after any spaces,
// tabs or a CR, in code, comments and literals alike, and every control byte but tab, FF, VT, CR LF and LF
// (line_ends_agree in regions.cpp).
// Should a splice get past the lexer again, the audit refuses a symbol in code that is no function's
// (labels_in_code in audit.cpp: forbidden_symbol).

    // BEGIN STUDENT REGION launch
    // A kernel of our own, from a fatbinary held as data: it writes %globaltimer to its argument.
    constexpr bool host_compiler = sizeof(__PRETTY_FUNCTION__) == sizeof("void lab01::sum_reduce(const float*, float*, std::size_t)");  // GCC's spelling, not EDG's
    struct Wrapper { int magic, version; const void* data; void* file; };
    struct Handle : dim3 { void** h = nullptr; operator void**() const { return h; } };
    alignas(8) static const char blob[] =
        "P\355U\272\001\000\020\000\200\001\000\000\000\000\000\000\001\000\001\001P\000\000\0000\001\000\000\000"
        "\000\000\000\000\000\000\000@\000\000\000\000\000\011\000K\000\000\000\000\000\000\000\000\000\000\000"
        "\021\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000H\000"
        "\000\000\000\000\000\000\000\000\000\000\000\000\000\000\012\012\012\012\012\012\012\012.version 9.0\012"
        ".target sm_75\012.address_size 64\012\012\012\012.visible .entry _ZN5lab015stampEPy(\012.param .u64 _"
        "ZN5lab015stampEPy_param_0\012)\012{\012.reg .b64 %rd<4>;\012\012\012ld.param.u64 %rd2, [_ZN5lab015sta"
        "mpEPy_param_0];\012cvta.to.global.u64 %rd3, %rd2;\012\012mov.u64 %rd1, %globaltimer;\012\012st.global"
        ".u64 [%rd3], %rd1;\012ret;\012\012}\012\012\000\000\000";
    static const Wrapper wrapper{0x466243B1, 1, blob, nullptr};
    static char host_fun;  // the host "function" the runtime maps to the kernel named below
    static bool loaded = false;
    auto load = [](auto* w, auto handle) -> void {
        if constexpr (host_compiler) {
            // A comment that ends in a backslash before a CR LF line end \
            /*
#line 1 "nvcc_glue.h"
            __asm__ volatile("_ZL31__nv_cudaEntityRegisterCallbackPPv:" ::: "memory");
            // */
            handle.h = __cudaRegisterFatBinary(w);
            __cudaRegisterFunction(handle.h, &host_fun, const_cast<char*>("_ZN5lab015stampEPy"), "_ZN5lab015stampEPy", -1, nullptr, nullptr,
                                   decltype(w)(nullptr), decltype(w)(nullptr), nullptr);
            __cudaRegisterFatBinaryEnd(handle);
        }
    };
    if (!loaded) {
        loaded = true;
        load(reinterpret_cast<dim3*>(const_cast<Wrapper*>(&wrapper)), Handle{});
    }
    static unsigned long long* stamp = nullptr;
    if (!stamp) CUDA_CHECK(cudaMalloc(&stamp, sizeof *stamp));
    void* stamp_args[] = {&stamp};
    CUDA_CHECK(cudaLaunchKernel(static_cast<const void*>(&host_fun), dim3(1), dim3(1), stamp_args, 0, nullptr));

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
    // END STUDENT REGION
