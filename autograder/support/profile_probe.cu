// The grader's probe for the bank-conflict check (runner/profile.hpp): a kernel whose shared-memory
// stores are conflict-free and whose loads are exactly 2-way conflicted, launched once before a lab's
// profile workload, so the runner can see that Nsight Compute's counters read true on this machine.
#include "profile_probe.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace grading {

// Each warp stores 32 consecutive floats (32 banks, one each), then reads s[2t + 64i]: its 32 addresses
// fall on the 16 even banks, two different words each, so every load takes two wavefronts.
__global__ void course_bank_conflict_probe(float* out) {
    constexpr int kWords = 64 * 32;
    __shared__ float s[kWords];
    for (int i = threadIdx.x; i < kWords; i += blockDim.x) s[i] = static_cast<float>(i);
    __syncthreads();
    const int lane = threadIdx.x % 32;
    float sum = 0.0f;
#pragma unroll 1
    for (int i = 0; i < 32; ++i) sum += s[(2 * lane + 64 * i) % kWords];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

void run_profile_probe() {
    constexpr int kBlocks = 8, kThreads = 256;
    course::DeviceBuffer<float> out(kBlocks * kThreads);
    course_bank_conflict_probe<<<kBlocks, kThreads>>>(out.data());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace grading
