// Attack (Lab 01, against the region rules' rule that a region cannot close its function or namespace
// (the bracket stack in regions.cpp, punctuation()) and the scope rule (a function-scope region holds
// statements)): CCCL's preprocessor helpers _CCCL_PP_RBRACE() and _CCCL_PP_LBRACE() expand to `}` and
// `{` (cccl headers, pulled in by <cooperative_groups.h>); CCCL also has _CCCL_PP_LPAREN/_RPAREN, and
// glibc __END_DECLS is a lone `}`. The lexer sees identifiers and balanced brackets; GCC sees the
// launcher's body closed, namespace-scope code, and a new function `after_launch()` whose body the
// skeleton's own `}` closes (the skeleton's CUDA_CHECK_LAUNCH() runs in it, never called). At namespace
// scope the region puts what Lab 01's regions may never hold: here an extern "C" block (glibc's
// __BEGIN_DECLS) defining the C name of std::chrono::steady_clock::now() (as
// lab03_begin_decls_extern_c_clock), and a namespace-scope variable.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 01): "compiles", region rules and audit "passed";
// nm -C on sum_reduction.cu.o: T lab01::after_launch(), W std::chrono::_V2::steady_clock::now(); nm on
// graders/lab01_slot1_host: W _ZNSt6chrono3_V212steady_clock3nowEv.
// What would catch it: the lexer refusing identifiers that name object-like or function-like macros
// of the headers whose expansion is unbalanced in (), [] or {} (a list taken from `g++ -dM -E` of the
// lab's includes at build time), or the audit comparing the graded file's function list (from the .ii)
// with the skeleton's. Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (_CCCL_PP_RBRACE, _CCCL_PP_LBRACE).

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
    // The function ends here for the compiler (CCCL's _CCCL_PP_RBRACE() is `}`); what follows is at namespace
    // scope, and _CCCL_PP_LBRACE() opens the body that the skeleton's own `}` closes.
_CCCL_PP_RBRACE()
inline long long fake_clock_ns = 0;
__BEGIN_DECLS
inline long long _ZNSt6chrono3_V212steady_clock3nowEv() { return fake_clock_ns += 1000; }
__END_DECLS
[[maybe_unused]] static auto* volatile keep_clock = &_ZNSt6chrono3_V212steady_clock3nowEv;
void after_launch() _CCCL_PP_LBRACE()
    // END STUDENT REGION
