// The GPU lock (see gpu_lock.hpp).
#include "gpu_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace grading {

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);
}

FileLock FileLock::take(const std::string& path, bool wait, bool shared) {
    FileLock l;
    // A lock taken on a file that the path no longer names (removed or replaced while this waited) locks
    // nothing that a later taker takes: the file the path names now is opened and locked instead.
    for (int tries = 0; tries < 100; ++tries) {
        int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        // A lock file another user made (their umask took its write bits) still locks: flock needs no write.
        if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return l;
        const int mode = shared ? LOCK_SH : LOCK_EX;
        int r;
        while ((r = ::flock(fd, wait ? mode : mode | LOCK_NB)) != 0 && errno == EINTR) {}
        if (r != 0) {
            ::close(fd);
            return l;
        }
        struct stat held {}, named {};
        if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
            held.st_ino == named.st_ino) {
            l.fd_ = fd;
            return l;
        }
        ::close(fd);
    }
    return l;
}

FileLock take_gpu(const std::string& lock, GpuUse use) {
    // Measured: the gate is held until the GPU is ours, so no shared taker passes it meanwhile. Shared: the
    // gate is only passed (taken and given back), behind any measurement waiting at it.
    const FileLock gate = FileLock::take(gpu_lock_gate(lock), true);
    return FileLock::take(lock, true, use == GpuUse::Shared);
}

GpuShare::GpuShare(std::string lock, std::function<void()> before_wait)
    : lock_(std::move(lock)), before_wait_(std::move(before_wait)) {
    take(GpuUse::Shared, false);
}

void GpuShare::alone() {
    if (!alone_) take(GpuUse::Measured, true);
}

void GpuShare::share() {
    if (alone_) take(GpuUse::Shared, true);
}

void GpuShare::take(GpuUse use, bool stop_first) {
    // The processes running the student's code are dealt with while the lock is still held: another program
    // given the GPU alone must find nothing of theirs on it.
    if (stop_first && before_wait_) before_wait_();
    held_ = FileLock{};  // given back before waiting: another program may be waiting for it, holding the gate
    held_ = take_gpu(lock_, use);
    if (!held_.held()) throw std::runtime_error("cannot take the GPU lock " + lock_ + ": " + std::strerror(errno));
    alone_ = use == GpuUse::Measured;
}

}  // namespace grading
