/// @file baselines.cuh
/// @brief What Lab 07's speed is measured against, in the same run (a naive kernel and CUB), and the
/// kernels that make its inputs on the GPU.
#pragma once

#include <cstddef>
#include <cstdint>

/// @brief Lab 07 baselines and input makers.
namespace lab07::baseline {

/// @brief The first tier: the counts zeroed, then one thread an element and one global atomicAdd an
/// element (no shared memory). Correct, and the floor the graded kernels must clearly beat; on data that
/// all falls in one bin, every atomic of the GPU waits for the same counter.
void naive_histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);

/// @brief The second tier, as the handout's TODOs 1 to 7 make it: the counts zeroed, then a grid of 8 blocks
/// an SM (at most one thread an element), each thread looping over the input a byte at a time, counting
/// into one histogram of 256 bins a block in shared memory with shared atomics, and each block adding its
/// nonzero bins to the counts with one global atomic a bin. Fast on uniform bytes; on bytes that all fall
/// in one bin every shared atomic of a block waits for the same word, and the speed check on that input
/// measures how far a kernel gets beyond it.
void privatised_histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);

/// @brief cub::DeviceHistogram::HistogramEven over the 256 byte values (257 levels, 0 to 256), with its
/// temporary storage allocated once.
class CubHistogram {
public:
    /// @brief Sizes the temporary storage for inputs of up to @p max_n bytes.
    explicit CubHistogram(std::size_t max_n);
    ~CubHistogram();
    CubHistogram(const CubHistogram&) = delete;
    CubHistogram& operator=(const CubHistogram&) = delete;
    /// @brief `d_counts[b]` = the bytes of `d_data[0..n)` equal to b, on the default stream.
    void operator()(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);

private:
    void* temp_ = nullptr;
    std::size_t temp_bytes_ = 0;
};

/// @brief The peers' host's entry for CubHistogram: one made again only when a larger n comes.
void cub_histogram_bytes(const unsigned char* d_data, std::size_t n, unsigned int* d_counts);

/// @brief Byte i of `d[0..n)` uniform in 0..255, a pure function of (@p seed, i).
void fill_uniform_bytes(unsigned char* d, std::size_t n, std::uint64_t seed);

/// @brief Byte i the AND of three uniform bytes: each bit set with probability 1/8, so bin 0 holds about a
/// third of the elements (7/8 to the 8th) and bin 255 about one in 2^24.
void fill_skewed_bytes(unsigned char* d, std::size_t n, std::uint64_t seed);

/// @brief `d[i] = i % period` (period 1 to 256): inputs past 2^31 elements, whose counts are known
/// without reading them back.
void fill_pattern_bytes(unsigned char* d, std::size_t n, unsigned int period);

/// @brief Key i uniform in 0..bins-1.
void fill_uniform_keys(std::uint32_t* d, std::size_t n, unsigned int bins, std::uint64_t seed);

/// @brief Key i the AND of two uniform keys below @p bins (so below bins too): skewed towards the keys
/// with few bits set, key 0 the most frequent.
void fill_skewed_keys(std::uint32_t* d, std::size_t n, unsigned int bins, std::uint64_t seed);

/// @brief `d[i] = key` for every i < n: data that all falls in one bin.
void fill_constant_keys(std::uint32_t* d, std::size_t n, std::uint32_t key);

/// @brief `d[i] = i % period`.
void fill_pattern_keys(std::uint32_t* d, std::size_t n, unsigned int period);

}  // namespace lab07::baseline
