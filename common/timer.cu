// Interleaved timing with CUDA events (see timer.hpp).
#include "timer.hpp"

#include <chrono>

namespace course {

std::vector<std::vector<double>> time_interleaved(const std::vector<std::function<void()>>& contenders,
                                                  const BenchOptions& options) {
    auto run_once = [&](std::size_t c, EventTimer* timer, double* host_ms) {
        if (options.before_each) options.before_each(c);
        if (timer && options.flusher) options.flusher->flush();
        CUDA_CHECK(cudaDeviceSynchronize());  // every run starts on an idle device: preparation is not timed
        const auto t0 = std::chrono::steady_clock::now();
        if (timer) timer->start();
        contenders[c]();
        if (timer) timer->stop();
        CUDA_CHECK(cudaDeviceSynchronize());
        if (host_ms) *host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (options.after_each) options.after_each(c);
    };
    for (int w = 0; w < options.warmup; ++w)
        for (std::size_t c = 0; c < contenders.size(); ++c) run_once(c, nullptr, nullptr);
    std::vector<std::vector<double>> samples(contenders.size());
    if (options.host_ms) options.host_ms->assign(contenders.size(), {});
    EventTimer timer;
    for (int r = 0; r < options.repetitions; ++r) {
        for (std::size_t c = 0; c < contenders.size(); ++c) {
            double host = 0.0;
            run_once(c, &timer, &host);
            samples[c].push_back(timer.elapsed_ms());
            if (options.host_ms) (*options.host_ms)[c].push_back(host);
        }
    }
    return samples;
}

}  // namespace course
