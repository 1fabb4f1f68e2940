/// @file baselines.cuh
/// @brief What Lab 01's speed is measured against, in the same run: a naive kernel and CUB.
#pragma once

#include <cstddef>

/// @brief Lab 01 baselines.
namespace lab01::baseline {

/// @brief The textbook first step: one element per thread, a shared-memory halving tree,
/// one atomicAdd per block. Correct, and the floor the graded kernel must clearly beat.
void naive_sum(const float* d_in, float* d_out, std::size_t n);

/// @brief cub::DeviceReduce::Sum with its temporary storage allocated once.
class CubSum {
public:
    /// @brief Sizes the temporary storage for inputs of up to @p max_n elements.
    explicit CubSum(std::size_t max_n);
    ~CubSum();
    CubSum(const CubSum&) = delete;
    CubSum& operator=(const CubSum&) = delete;
    /// @brief `*d_out = sum(d_in[0..n))` on the default stream.
    void operator()(const float* d_in, float* d_out, std::size_t n);

private:
    void* temp_ = nullptr;
    std::size_t temp_bytes_ = 0;
};

}  // namespace lab01::baseline
