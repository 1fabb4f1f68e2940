// The GPU lock and the grading slots (see locks.hpp).
#include "locks.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace grading {

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);
}

FileLock FileLock::take(const std::string& path, bool wait, bool shared) {
    FileLock l;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) return l;
    const int mode = shared ? LOCK_SH : LOCK_EX;
    int r;
    while ((r = ::flock(fd, wait ? mode : mode | LOCK_NB)) != 0 && errno == EINTR) {}
    if (r == 0) l.fd_ = fd;
    else ::close(fd);
    return l;
}

FileLock take_gpu(const std::string& lock, GpuUse use) {
    // Measured: the gate is held until the GPU is ours, so no shared taker passes it meanwhile. Shared: the
    // gate is only passed (taken and given back), behind any measurement waiting at it.
    const FileLock gate = FileLock::take(gpu_lock_gate(lock), true);
    return FileLock::take(lock, true, use == GpuUse::Shared);
}

std::string default_gpu_lock() {
    char bus_id[64] = {0};
    int count = 0;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0 && cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0) == cudaSuccess)
        if (std::string lock = gpu_lock_for_bus_id(bus_id); !lock.empty()) return lock;
    cudaGetLastError();  // no GPU here: nothing of it stays behind
    std::string devices = "all";
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) devices = v;
    for (char& ch : devices)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return "/tmp/course-grader-gpu-" + devices + ".lock";
}

Slot take_slot(const std::string& build_dir) {
    const fs::path dir = fs::path(build_dir) / "grading" / "slots";
    fs::create_directories(dir);
    for (;;) {
        for (int n = 1; n <= GRADER_SLOTS; ++n)
            if (FileLock l = FileLock::take((dir / (std::to_string(n) + ".lock")).string(), false); l.held())
                return {n, std::move(l)};
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

}  // namespace grading
