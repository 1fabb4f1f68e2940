// Attack (Lab 01, twelfth round, against the audit of the lab's PTX and the region rules' ban on inline
// assembly): device code that no PTX file of the build holds. The launch region carries a fatbinary as a
// string literal (plain PTX of a kernel lab01::stamp that reads %globaltimer; it could hold any
// instruction: shfl in Lab 04, mma in Lab 03) and registers it with nvcc's own glue,
// __cudaRegisterFatBinary, __cudaRegisterFunction and __cudaRegisterFatBinaryEnd, then launches it with
// cudaLaunchKernel: every import is on the allow-list, which takes the glue for nvcc's code. The glue is
// declared only in crt/host_runtime.h, which nvcc's stub includes after the lab's code, so the calls are
// unqualified calls in a generic lambda, found by argument-dependent lookup (arguments of type dim3*, a
// global type, and of a local class derived from dim3) when GCC instantiates the lambda at the end of the
// file. EDG (cudafe++), which sees no such declaration, never instantiates them: they sit in `if constexpr`
// on the length of __PRETTY_FUNCTION__, true for GCC's spelling of the name and false for EDG's, and
// cudafe++ writes the condition out unevaluated. No asm, attribute, preprocessor line or forbidden
// identifier is in the region. The reduction is the solution's; this one adds a global-timer stamp a call.
// What catches it: the audit refuses any reference to the registration glue (or atexit) from a function
// other than nvcc's own file-local registration functions, or from the object's data
// (registration_outside_nvcc, audit.cpp). Expected: forbidden_symbol.

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
