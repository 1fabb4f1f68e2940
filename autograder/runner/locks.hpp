/// @file locks.hpp
/// @brief What every grade process of a machine takes in turn: the GPU lock, held while checks and tools
/// run so that timings never overlap, and the grading slots, the build folder's sets of lab programs in
/// which submissions from a folder are built.
#pragma once

#include <string>
#include <utility>

namespace grading {

/// An exclusive lock on a file, held until destroyed (closing the file releases it): the GPU lock and
/// the grading slots. Every grade process of this machine takes the same files.
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
    /// Waits for the lock (when @p wait), else gives up at once; an empty FileLock when not taken.
    static FileLock take(const std::string& path, bool wait);
    bool held() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

/// The GPU lock's file when none is given: one a set of visible GPUs (CUDA_VISIBLE_DEVICES), in the
/// system's temporary folder.
std::string default_gpu_lock();

/// A grading slot held by this process: its number and the lock on <build>/grading/slots/<n>.lock.
struct Slot {
    int number = 0;
    FileLock lock;
};

/// Takes a free slot, waiting for one when all are busy (other grade processes may hold some).
Slot take_slot(const std::string& build_dir);

}  // namespace grading
