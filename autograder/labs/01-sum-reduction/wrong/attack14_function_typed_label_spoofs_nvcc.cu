// Attack (Lab 01, static layers, against the audit's fix for attack13_label_spoofs_nvcc_registration,
// labels_in_code in audit.cpp, and the region rules' lexer): the same spoof of nvcc's file-local
// _ZL31__nv_cudaEntityRegisterCallbackPPv, inside lab01::sum_reduce, ahead of the registration glue calls
// (the fatbinary of attack12_fatbin_via_nvcc_glue: a kernel lab01::stamp reading %globaltimer, whose PTX
// no .ptx file of the build holds). labels_in_code refuses a symbol in a code section unless objdump -t
// flags it F (function), d, O or f (audit.cpp:573-596); a label made with `.type NAME, @function` is
// flagged F, so it passes, and parse_objdump still attributes the three glue relocations that follow it
// to nvcc's name (registration_outside_nvcc's nvcc_own). The asm and the #line that hides it from the
// .ii scan are hidden from the region rules by the digit-separator desync of
// lab01_digit_separator_dollar_hides_line_incbin (`_GLIBCXX_DEBUG_ASSERT(1'$' '/*');`: GCC reads 1 and
// the literals '$' and '/*', dropped by the empty macro; the lexer reads the number 1'$, the literal
// ' ', and a block comment from /* to the `// */ )` two lines down).
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01): "compiles", region rules and audit "passed"
// ("each of the 40 functions and objects it uses is allowed"); objdump -t of lab01_slot1_code's object:
//   00000000000003b7 l     F .text  0000000000000000 _ZL31__nv_cudaEntityRegisterCallbackPPv
// objdump -dr: 3bf: R_X86_64_PLT32 __cudaRegisterFatBinary-0x4 (and the other glue) under that name,
// inside lab01::sum_reduce (0x250..0x4ba); "%globaltimer" in the object's data, in no .ptx of keep/.
// What would catch it: labels_in_code refusing any symbol in a code section that is not the start of a
// function the compiler emitted (F with a non-zero size; this one has size 0) and any symbol inside
// another function's extent; registration_outside_nvcc attributing relocations by the enclosing sized
// function symbol rather than the last label printed; and the lexer fix of the digit separator.
// Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse the digit separator's '$' that hid
// the assembly; the audit refuses a function symbol with no size or inside another function.

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
            _GLIBCXX_DEBUG_ASSERT(1'$' '/*');
#line 1 "nvcc_glue.h"
            __asm__ volatile(".type _ZL31__nv_cudaEntityRegisterCallbackPPv, @function\n_ZL31__nv_cudaEntityRegisterCallbackPPv:" ::: "memory");
            // */ )
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
