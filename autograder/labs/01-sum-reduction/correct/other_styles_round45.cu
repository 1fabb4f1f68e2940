// Correct Lab 01, written in styles a round of correct code found refused, each now allowed: a
// `#pragma unroll` whose count is a member of a constexpr object, an exception class of the launcher's own
// with two bases (its destructor's thunk), cudaError_t thrown and caught by type, std::exception_ptr
// keeping a failed device query for later calls, sprintf and strncat composing a message, and
// __builtin_popcount (a call to GCC's helper) checking the block size. The error paths never run in a
// grading; the sums are the reference's. It must pass every check.

// BEGIN STUDENT REGION block_sum_kernel
    // The reference's kernel, with its four loads a step counted by a constexpr object's member.
    constexpr struct {
        int loads;
    } kStep{4};
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + (kStep.loads - 1) * threads < n4; i += kStep.loads * threads) {
            float4 v[kStep.loads];
#pragma unroll kStep.loads
            for (int k = 0; k < kStep.loads; ++k) v[k] = in4[i + k * threads];
            float step = 0.0f;
#pragma unroll kStep.loads
            for (int k = 0; k < kStep.loads; ++k) step += (v[k].x + v[k].y) + (v[k].z + v[k].w);
            sum += step;
        }
        for (; i < n4; i += threads) {
            const float4 a = in4[i];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // the tail (< 4 elements)

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    struct Tagged {
        virtual ~Tagged() = default;
    };
    struct LaunchError : std::runtime_error, Tagged {  // two bases: its destructor has a thunk
        using std::runtime_error::runtime_error;
    };
    if (__builtin_popcount(static_cast<unsigned>(kBlockSize)) != 1) throw LaunchError("block size not a power of two");
    // The device query once; a failure is kept and rethrown on every later call.
    static std::exception_ptr query_failed;
    static int max_blocks = 0;
    if (max_blocks == 0 && !query_failed) {
        try {
            int device = 0, sms = 0;
            const cudaError_t got = cudaGetDevice(&device);
            if (got != cudaSuccess) throw got;
            CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
            max_blocks = 8 * sms;
        } catch (cudaError_t code) {
            char message[160];
            std::sprintf(message, "sum_reduce: no device (%d): ", static_cast<int>(code));
            std::strncat(message, cudaGetErrorString(code), sizeof message - std::strlen(message) - 1);
            query_failed = std::make_exception_ptr(LaunchError(message));
        } catch (...) {
            query_failed = std::current_exception();
        }
    }
    if (query_failed) std::rethrow_exception(query_failed);
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
// END STUDENT REGION
