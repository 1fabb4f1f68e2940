// Interleaved timing with CUDA events (see timer.hpp).
#include "timer.hpp"

namespace course {

std::vector<std::vector<double>> time_interleaved(const std::vector<std::function<void()>>& contenders,
                                                  const BenchOptions& options) {
    for (int w = 0; w < options.warmup; ++w)
        for (const auto& run : contenders) run();
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<std::vector<double>> samples(contenders.size());
    EventTimer timer;
    for (int r = 0; r < options.repetitions; ++r) {
        for (std::size_t c = 0; c < contenders.size(); ++c) {
            if (options.flusher) options.flusher->flush();
            timer.start();
            contenders[c]();
            timer.stop();
            samples[c].push_back(timer.elapsed_ms());
        }
    }
    return samples;
}

}  // namespace course
