/// @file timer.hpp
/// @brief Honest GPU timing: CUDA events, warm-up, interleaved repetitions, medians.
///
/// Kernel launches are asynchronous, so host clocks measure nothing useful
/// without a synchronisation; events recorded on the stream time exactly the
/// device work between them. time_interleaved() runs the contenders (student,
/// baseline, library peer) round-robin so that clock boost, thermal drift or a
/// neighbour's load affect all of them alike, and reports per-contender medians,
/// which one slow outlier cannot move.
#pragma once

#include "device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace course {

/// @brief A pair of CUDA events that time the device work recorded between start() and stop().
class EventTimer {
public:
    /// @brief Creates the two events.
    EventTimer() {
        CUDA_CHECK(cudaEventCreate(&start_));
        CUDA_CHECK(cudaEventCreate(&stop_));
    }
    /// @brief Destroys the two events.
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    /// @brief Not copyable: the events belong to one timer.
    EventTimer(const EventTimer&) = delete;
    /// @brief Not copyable: the events belong to one timer.
    EventTimer& operator=(const EventTimer&) = delete;

    /// @brief Records the start event on @p stream.
    void start(cudaStream_t stream = nullptr) { CUDA_CHECK(cudaEventRecord(start_, stream)); }
    /// @brief Records the stop event on @p stream.
    void stop(cudaStream_t stream = nullptr) { CUDA_CHECK(cudaEventRecord(stop_, stream)); }
    /// @brief Waits for the stop event and returns the elapsed time in milliseconds.
    float elapsed_ms() {
        CUDA_CHECK(cudaEventSynchronize(stop_));
        float ms = 0.0f;
        CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
        return ms;
    }

private:
    cudaEvent_t start_{};
    cudaEvent_t stop_{};
};

/// @brief Median of @p samples (the mean of the middle two for an even count). Empty input gives 0.
inline double median(std::vector<double> samples) {
    if (samples.empty()) return 0.0;
    const std::size_t mid = samples.size() / 2;
    std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
    double m = samples[mid];
    if (samples.size() % 2 == 0) m = (m + *std::max_element(samples.begin(), samples.begin() + mid)) / 2.0;
    return m;
}

/// @brief Evicts the L2 cache by writing a buffer twice its size, so a timed run starts cold.
class L2Flusher {
public:
    /// @param l2_bytes the device's L2 size (DeviceInfo::l2_bytes)
    explicit L2Flusher(std::size_t l2_bytes) : buffer_(std::max<std::size_t>(2 * l2_bytes, 1)) {}
    /// @brief Overwrites the whole buffer on @p stream.
    void flush(cudaStream_t stream = nullptr) {
        CUDA_CHECK(cudaMemsetAsync(buffer_.data(), ++value_, buffer_.bytes(), stream));
    }

private:
    DeviceBuffer<unsigned char> buffer_;
    unsigned char value_ = 0;
};

/// @brief Options for time_interleaved().
struct BenchOptions {
    int warmup = 3;                 ///< untimed runs of each contender first (module load, caches, clocks)
    int repetitions = 15;           ///< timed runs of each contender
    L2Flusher* flusher = nullptr;   ///< when set, L2 is flushed before every timed run
    /// @brief Called with the contender's index before each of its runs, warm-ups included, outside the
    /// timed interval (e.g. to poison its output or pick its input).
    std::function<void(std::size_t)> before_each;
    /// @brief Called with the contender's index after each of its runs, once the whole device is idle,
    /// outside the timed interval (e.g. to check its result).
    std::function<void(std::size_t)> after_each;
    /// @brief When set, receives for every timed run the host time (ms) from before the launch to the end
    /// of a device-wide synchronisation: work the events could not see (another stream) shows up here.
    std::vector<std::vector<double>>* host_ms = nullptr;
};

/// @brief Times each function in @p contenders with events, round-robin, and returns the samples (ms):
/// result[c][r] is repetition r of contender c. Every function must enqueue its work on the default stream.
/// Each run starts and ends with the whole device idle (cudaDeviceSynchronize), so no run overlaps another
/// run or its preparation.
/// Compiled into course_common (not inline), so a lab that may use it (Lab 06's detector) calls the course's
/// timer rather than creating events of its own.
std::vector<std::vector<double>> time_interleaved(const std::vector<std::function<void()>>& contenders,
                                                  const BenchOptions& options = {});

/// @brief GB/s for @p bytes moved in @p ms milliseconds.
inline double gb_per_s(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; }

/// @brief GFLOP/s for @p flops done in @p ms milliseconds.
inline double gflop_per_s(double flops, double ms) { return ms > 0 ? flops / (ms * 1e6) : 0.0; }

}  // namespace course
