// Attack (Lab 01, against the object audit's exemption of nvcc's stand-ins, the forty-fifth round): a
// function of the launcher's own that only calls exit() has the shape of nvcc's host stand-in of a
// __device__ function (a few instructions, exit and nothing else), which the audit lets import exit as
// long as nothing refers to it. Its caller calls it within their section, where the call needs no
// relocation, so the references read from the relocations alone did not see it; the lab's code could end
// the launch host. What catches it: a function another one calls or whose address it loads in their own
// section (the disassembler names it) is no stand-in. Expected: forbidden_symbol ("calls exit").
// The regions not given here are the solution's.

// BEGIN STUDENT REGION launch
    // A helper that leaves the process (only reached on a size the grader never passes).
    struct Quit {
        [[gnu::noinline]] static void now(int code) { exit(code); }
    };
    if (n == 0x7ffffff1u) Quit::now(0);
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

