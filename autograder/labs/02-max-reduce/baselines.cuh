/// @file baselines.cuh
/// @brief What Lab 02's speed is measured against, in the same run: a naive kernel and CUB.
#pragma once

#include <cstddef>

/// @brief Lab 02 baselines.
namespace lab02::baseline {

/// @brief The textbook first step: one element per thread, a shared-memory halving tree, one
/// atomic maximum per block, with the lab's NaN policy. Correct, and the floor the graded kernel
/// must clearly beat.
void naive_max(const float* d_in, float* d_out, std::size_t n);

/// @brief cub::DeviceReduce::Max with its temporary storage allocated once.
///
/// CUB starts the reduction from -FLT_MAX (numeric_limits::lowest) and compares with `>`, so it
/// is the speed peer only: on NaN or all -INFINITY inputs it does not follow the lab's policy.
class CubMax {
public:
    /// @brief Sizes the temporary storage for inputs of up to @p max_n elements.
    explicit CubMax(std::size_t max_n);
    ~CubMax();
    CubMax(const CubMax&) = delete;
    CubMax& operator=(const CubMax&) = delete;
    /// @brief `*d_out = max(d_in[0..n))` on the default stream.
    void operator()(const float* d_in, float* d_out, std::size_t n);

private:
    void* temp_ = nullptr;
    std::size_t temp_bytes_ = 0;
};

}  // namespace lab02::baseline
