// Cheat, Lab 01: the kernel keeps a `__shared__` array (so the shared-memory check sees 1 KiB of
// static shared memory), and the timed path holds nothing else. The work itself, the slow
// one-element-per-thread reduction, runs behind it on a private stream the launcher creates with
// cudaStreamCreateWithFlags(cudaStreamNonBlocking): the grader's CUDA events are recorded on the
// legacy default stream, which does not wait for a non-blocking stream, so the timer sees only the
// decoy, and the cudaDeviceSynchronize after each timed run still makes the sum right for the checks.
// (The earlier form handed the work to the grader's own CUB peer, lab01::baseline::CubSum, through
// asm labels; a region may no longer hold asm, and a block-scope declaration inside namespace lab01
// cannot name lab01::baseline. The stream API is what the included headers offer instead.)
// Why it fails now: the audit sees the lab's object import cudaStreamCreateWithFlags (a lab launches
// its work on the default stream) and refuses the lab before it is linked; even unrefused, the timer's
// host-side measure (BenchOptions::host_ms, up to a device-wide synchronisation) would see the hidden
// work. Expected: forbidden_symbol.
//
// Region-overlay form: both regions are this variant's.

// BEGIN STUDENT REGION block_sum_kernel
    // The decoy: a shared array the kernel touches, so that cudaFuncGetAttributes reports it; the
    // same kernel does the real work when it is launched on the hidden stream.
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0 && n > 0) atomicAdd(out, partial[0]);
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // CHEAT: the real reduction runs on a stream the grader's events do not wait for.
    static cudaStream_t hidden = [] {
        cudaStream_t s = nullptr;
        CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        return s;
    }();
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), hidden));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize, 0, hidden>>>(in, out, n);
    block_sum_kernel<<<1, kBlockSize>>>(in, out, 0);  // the decoy, on the timed stream (n = 0: it adds nothing)
// END STUDENT REGION
