// Attack (Lab 02, the forty-sixth round, against the region rules): the launcher reads its own frame and
// return address with __builtin_frame_address and __builtin_return_address (names the reserved-name rule let
// through: two underscores and a lower-case letter, no import), from which it can walk and rewrite the stack
// of the launch host that called it. Refused now: the builtins that reach the callers' stack or leave a
// function past its return are refused by name in a region. Expected: refused_region.
// The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    // GCC's frame builtins (two underscores and a lower-case letter: allowed names, no import): the
    // launcher reads its caller's frame and return address in the launch host's own code. From there a
    // walk up the stack reaches the interface's locals (the call's arguments, the batch's buffers) and
    // its return path, which a write to frame[1] would redirect (to skip what follows the call).
    void** const frame = static_cast<void**>(__builtin_frame_address(0));
    const void* const back = __builtin_return_address(0);
    static const void* first_caller = nullptr;
    if (first_caller == nullptr) first_caller = back;
    if (frame != nullptr && frame[1] == back && back != first_caller) frame[1] = const_cast<void*>(back);
    // Enough blocks to fill every SM several times over, no more: each thread then loops over
    // many elements, and only a few hundred atomics reach *out.
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    set_identity_kernel<<<1, 1>>>(out);  // stream order: *out is -INFINITY before any block combines into it
    CUDA_CHECK_LAUNCH();
    block_max_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION

