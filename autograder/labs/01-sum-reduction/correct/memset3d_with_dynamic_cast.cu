// Correct Lab 01, written differently from the reference: the launcher zeroes the result with
// cudaMemset3D (a box of one float) instead of cudaMemsetAsync, inside a try block whose handler tells a
// runtime error from other exceptions with dynamic_cast before rethrowing it. The regions not given here
// are the solution's. It must pass every check.

// BEGIN STUDENT REGION launch
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    try {
        const cudaPitchedPtr result = make_cudaPitchedPtr(out, sizeof(float), 1, 1);
        CUDA_CHECK(cudaMemset3D(result, 0, make_cudaExtent(sizeof(float), 1, 1)));
    } catch (const std::exception& e) {
        if (dynamic_cast<const std::runtime_error*>(&e) != nullptr) printf("sum_reduce: zeroing failed: %s\n", e.what());
        throw;
    }
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
