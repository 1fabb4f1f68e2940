// Attack (Lab 01, forty-fourth round, against the rule that a region cannot close its function or
// namespace): glibc's C++ cleanup macros, which a region may name (they are not reserved), expand to an
// unbalanced block: pthread_cleanup_push opens `do {`, pthread_cleanup_pop closes `} while (0)`. Inside
// braces the rules see balanced, one pop more than pushes closes sum_reduce, the next line's closes
// namespace lab01; code at global scope follows (a weak definition in namespace std that would replace
// libstdc++'s, a graded_kernel of the student's), and two pushes closed by visible braces put the
// course's closing lines back inside a function. The regions not given here are the solution's.
// What catches it: the preprocessed source's braces compared with the compiled source's, line by line.
// Expected: refused_region.
// BEGIN STUDENT REGION launch
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    // glibc's C++ cleanup macros: push opens `do {`, pop closes `} while (0)`; one pop more than pushes
    pthread_cleanup_push(+[](void*) {}, nullptr); { pthread_cleanup_pop(0); pthread_cleanup_pop(0); }
    void leave_namespace() { pthread_cleanup_push(+[](void*) {}, nullptr); { pthread_cleanup_pop(0); pthread_cleanup_pop(0); } }
    // Now at global scope for the compiler: a weak definition in namespace std that interposes libstdc++.so's
    namespace std {
    [[gnu::used, gnu::noinline]] inline void __throw_bad_function_call() { printf("student code in a libstdc++ symbol\n"); throw std::runtime_error("x"); }
    }
    namespace lab01 { const void* graded_kernel() { return reinterpret_cast<const void*>(&block_sum_kernel); } }
    namespace lab01::hidden { void tail() { pthread_cleanup_push(+[](void*) {}, nullptr); pthread_cleanup_push(+[](void*) {}, nullptr); } while (0); } while (0);
// END STUDENT REGION
