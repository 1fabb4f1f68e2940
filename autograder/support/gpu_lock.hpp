/// @file gpu_lock.hpp
/// @brief The GPU lock, as every process of a grading takes it: the runner for a lab's exact checks, its
/// memory check and Nsight Compute, and a lab's check program for its measured checks (GpuShare: the lock
/// shared for the whole run, alone only around what is timed). Host code only.
#pragma once

#include <functional>
#include <string>
#include <utility>

namespace grading {

/// A lock on a file, exclusive or shared, held until destroyed (closing the file releases it): the GPU
/// lock and the grading slots. Every grade process of this machine takes the same files.
class FileLock {
public:
    FileLock() = default;
    FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    FileLock& operator=(FileLock&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();
    /// Waits for the lock (when @p wait), else gives up at once; an empty FileLock when not taken. A
    /// @p shared lock is held by any number of processes at once, never beside an exclusive one.
    static FileLock take(const std::string& path, bool wait, bool shared = false);
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

/// What a grading does on a GPU, for the GPU lock: measured work (a lab's checks, which time and sample
/// the GPU's counters, and Nsight Compute, which reads them) runs with the GPU to itself; work whose result
/// only has to be right (the memory and race check) runs beside other such work, never beside measured work.
/// Nsight Compute beside memory checks counted the same (.ci/gpu-nsight-beside.sh) but ran 3 to 5 times
/// longer, near its time limit, so it stays measured work.
enum class GpuUse { Measured, Shared };

/// The gate beside GPU lock @p lock (<lock>.gate): a grading about to measure holds it while it waits for
/// the GPU, and one about to share the GPU passes it first, so that shared work that keeps coming never
/// keeps a measurement waiting.
inline std::string gpu_lock_gate(const std::string& lock) { return lock + ".gate"; }

/// Takes GPU lock @p lock for @p use, waiting as long as it takes: exclusive for GpuUse::Measured, shared
/// for GpuUse::Shared, through the gate (gpu_lock_gate; where the gate cannot be opened, the lock alone).
FileLock take_gpu(const std::string& lock, GpuUse use);

/// A check program's hold on the GPU lock @p lock for its measured checks: shared from construction on, so
/// that its set-up, its reference results and its verification run beside other gradings' exact checks;
/// alone only between alone() and share(), around what it times. Each change gives the held lock back
/// before waiting for the other kind (two programs that each wait alone while holding it shared would wait
/// for each other), and goes through the gate (take_gpu) like every taker. @p before_wait runs before each
/// wait: the program stops the processes that run the student's code, so that nothing of theirs runs while
/// another grading has the GPU to itself.
class GpuShare {
public:
    GpuShare(std::string lock, std::function<void()> before_wait);
    /// Takes the GPU alone (held shared before).
    void alone();
    /// Gives the GPU back to sharing (held alone before).
    void share();
    bool is_alone() const { return alone_; }

private:
    std::string lock_;
    std::function<void()> before_wait_;
    FileLock held_;
    bool alone_ = false;
};

}  // namespace grading
