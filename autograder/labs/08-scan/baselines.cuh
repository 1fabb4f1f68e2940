/// @file baselines.cuh
/// @brief What Lab 08's speed is measured against, in the same run: a naive scan and CUB; and the grader's
/// exact comparison of two device arrays, for outputs too large to copy to the host.
#pragma once

#include <cstddef>

/// @brief Lab 08 baselines.
namespace lab08::baseline {

/// @brief The textbook first multi-block scan: one element a thread, a Hillis–Steele scan of each block's
/// 256 elements in shared memory (a barrier after each of its 8 steps), each block's total written out;
/// those totals scanned by the same scheme, and a third kernel that adds to every block the totals of the
/// blocks before it. Correct at every n (the sums wrap modulo 2^32, as the lab's), and the floor the graded
/// code must clearly beat: it reads and writes the output twice, and its blocks are short and barrier-bound.
/// Its scratch memory is allocated once and grown when a larger n comes.
void naive_scan(const int* d_in, int* d_out, std::size_t n);

/// @brief cub::DeviceScan::InclusiveSum over the ints read as unsigned (where the wrap-around is defined,
/// and the same bits as the lab's two's-complement sums), its temporary storage allocated once, 64-bit
/// element counts: the library peer, and the reference of the checks past 2^31 elements.
class CubScan {
public:
    /// @brief Sizes the temporary storage for inputs of up to @p max_n elements.
    explicit CubScan(std::size_t max_n);
    ~CubScan();
    CubScan(const CubScan&) = delete;
    CubScan& operator=(const CubScan&) = delete;
    /// @brief The inclusive scan of d_in[0 .. n) into d_out, on the default stream.
    void operator()(const int* d_in, int* d_out, std::size_t n);

private:
    void* temp_ = nullptr;
    std::size_t temp_bytes_ = 0;
    std::size_t max_n_ = 0;
};

/// @brief The first index i < n where the device arrays' 32-bit words differ, or n where they are equal
/// (bit for bit), found on the GPU and waited for.
std::size_t first_difference(const int* d_a, const int* d_b, std::size_t n);

}  // namespace lab08::baseline
