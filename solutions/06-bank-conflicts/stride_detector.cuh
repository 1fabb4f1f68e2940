/// @file stride_detector.cuh
/// @brief Lab 06 interface: the bank-conflict model, a strided-load microbenchmark, and a detector
/// that names the conflict degree of an unknown kernel from its timings. The starter and the
/// solution implement it.
#pragma once

#include <functional>

/// @brief Lab 06: shared-memory bank conflicts.
namespace lab06 {

/// @brief Threads per block of strided_load_kernel.
inline constexpr int kBlockSize = 256;

/// @brief Banks of shared memory, each 4 bytes wide, on every GPU the course supports (Turing and newer).
inline constexpr int kBanks = 32;

/// @brief The largest stride (in words) strided_loads() must support.
inline constexpr int kMaxStride = 32;

/// @brief The n of the n-way bank conflict when lane `l` of a warp reads word `l * stride` of a
/// shared array of @p word_bytes-byte words: how many times slower than conflict-free (stride 1)
/// the warp's load is served.
/// @param stride distance between the words of neighbouring lanes, in words; at least 1
/// @param word_bytes 4 (float, int) or 8 (double); anything else throws std::invalid_argument
/// @return the conflict degree: 1 (conflict-free) up to 32 (4-byte words) or 16 (8-byte words)
int conflict_ways(int stride, int word_bytes);

/// @brief The microbenchmark: launches strided_load_kernel on the default stream so that many
/// warps, each lane reading shared word `lane * stride` (plus a fixed offset per load), load from
/// shared memory as fast as the banks allow. The grader times it with CUDA events.
/// @param stride 1 to kMaxStride; anything else throws std::invalid_argument
/// @param word_bytes 4 (loads floats) or 8 (loads doubles); anything else throws std::invalid_argument
/// @param d_sink device pointer to one float the kernel may write, so that the compiler must keep its
///        loads; its contents afterwards are not checked
void strided_loads(int stride, int word_bytes, float* d_sink);

/// @brief The detector: times a kernel of unknown stride against the same kernel at known strides,
/// and returns the conflict degree (1, 2, 4, ...) whose timing the unknown one matches.
/// @param run_mystery runs one launch of the unknown kernel and returns once it is done. It runs after
///        everything enqueued on the device before the call, and before anything enqueued after it, so
///        events recorded on the default stream before and after the call time it: course::time_interleaved's,
///        the one timer a lab may use (a lab that creates events of its own, through course::EventTimer
///        too, is refused at build time). The grader's kernels run in the grader's own process, where your
///        code cannot read their strides
/// @param run_known the same for the same kernel with the given stride (1 to 128; anything else throws
///        std::invalid_argument); its conflict degree is conflict_ways(stride, word_bytes)
/// @param word_bytes 4 or 8: the size of the words both kernels load
/// @return the conflict degree of run_mystery: a power of two, at most 32 (4-byte words) or 16 (8-byte)
int detect_conflict_ways(const std::function<void()>& run_mystery, const std::function<void(int stride)>& run_known,
                         int word_bytes);

/// @brief The kernel the grader inspects for its use of shared memory.
/// @param word_bytes 4 or 8
/// @return strided_load_kernel<float> for 4, strided_load_kernel<double> for 8
const void* graded_kernel(int word_bytes);

}  // namespace lab06
