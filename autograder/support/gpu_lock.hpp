/// @file gpu_lock.hpp
/// @brief The GPU lock, as every process of a grading takes it: the runner for a lab's exact checks, its
/// memory check and Nsight Compute, and a lab's check program for its measured checks (GpuShare: the lock
/// shared for the whole run, alone only around what is timed). Host code only.
#pragma once

#include <functional>
#include <string>
#include <utility>

namespace grading {

/// @brief A lock on a file, exclusive or shared, held until destroyed (closing the file releases it): the
/// GPU lock and the grading slots. Every grade process of this machine takes the same files.
class FileLock {
public:
    /// @brief No lock held.
    FileLock() = default;
    /// @brief Takes over @p o's lock (@p o then holds none).
    FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
    /// @brief Swaps locks with @p o: the lock held before is given back when @p o goes.
    FileLock& operator=(FileLock&& o) noexcept {
        std::swap(fd_, o.fd_);
        return *this;
    }
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    /// @brief Gives the lock back.
    ~FileLock();
    /// @brief Waits for the lock on @p path (when @p wait), else gives up at once; an empty FileLock when
    /// not taken. A @p shared lock is held by any number of processes at once, never beside an exclusive one.
    /// The lock is on the file @p path names once it is taken (one removed or replaced meanwhile is let go).
    static FileLock take(const std::string& path, bool wait, bool shared = false);
    /// @brief Whether a lock is held.
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

/// @brief What a grading does on a GPU, for the GPU lock: measured work (what a lab's measured checks time
/// or size by the GPU's memory, and Nsight Compute, which reads the counters) runs with the GPU to itself;
/// work whose result only has to be right (exact checks, the memory and race check) runs beside other such
/// work, never beside measured work.
/// Nsight Compute beside memory checks counted the same (.ci/gpu-nsight-beside.sh) but ran 3 to 5 times
/// longer, near its time limit, so it stays measured work.
enum class GpuUse {
    Measured,  ///< with the GPU alone (the lock taken exclusive)
    Shared     ///< beside other shared work (the lock taken shared)
};

/// @brief The gate beside GPU lock @p lock (the lock's name and `.gate`): a grading about to measure holds it
/// while it waits for the GPU, and one about to share the GPU passes it first, so that shared work that
/// keeps coming never keeps a measurement waiting.
inline std::string gpu_lock_gate(const std::string& lock) { return lock + ".gate"; }

/// @brief Takes GPU lock @p lock for @p use, waiting as long as it takes: exclusive for GpuUse::Measured, shared
/// for GpuUse::Shared, through the gate (gpu_lock_gate; where the gate cannot be opened, the lock alone).
FileLock take_gpu(const std::string& lock, GpuUse use);

/// @brief A check program's hold on a GPU lock for its measured checks: shared from construction on, so
/// that its set-up, its reference results and its verification run beside other gradings' exact checks;
/// alone only between alone() and share(), around what it times. Each change gives the held lock back
/// before waiting for the other kind (two programs that each wait alone while holding it shared would wait
/// for each other), and goes through the gate (take_gpu) like every taker. @p before_wait runs before each
/// change, with the lock still held: the program ends the process that runs the student's code (its CUDA
/// context, and every kernel it queued, go with it), so that nothing of the student's is left on the GPU
/// while another grading has it to itself.
class GpuShare {
public:
    /// @brief Takes GPU lock @p lock shared (through the gate); @p before_wait runs before each later wait.
    /// Throws std::runtime_error where the lock's file cannot be opened.
    GpuShare(std::string lock, std::function<void()> before_wait);
    /// @brief Takes the GPU alone (held shared before).
    void alone();
    /// @brief Gives the GPU back to sharing (held alone before).
    void share();
    /// @brief Whether the GPU is held alone.
    bool is_alone() const { return alone_; }

private:
    // Runs before_wait_ (when @p stop_first), gives the held lock back, and takes the lock for @p use.
    void take(GpuUse use, bool stop_first);

    std::string lock_;
    std::function<void()> before_wait_;
    FileLock held_;
    bool alone_ = false;
};

}  // namespace grading
