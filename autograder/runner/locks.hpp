/// @file locks.hpp
/// @brief What every grade process of a machine takes in turn: the GPU lock, held while checks and tools
/// run so that timings never overlap, and the grading slots, the build folder's sets of lab programs in
/// which submissions from a folder are built.
#pragma once

#include "gpu_lock.hpp"

#include <cstdio>
#include <string>
#include <utility>

namespace grading {

/// The GPU lock's file of the GPU at PCI address @p bus_id ("0000:19:00.0", as CUDA and the driver name it;
/// the domain's width and the digits' case do not matter): /tmp/course-grader-gpu-0000_19_00_0.lock. One
/// file a physical GPU, whoever names it: a grade process (its device 0) and the grading service's worker of
/// that GPU (its /dev/nvidiaN) take the same. "" when @p bus_id is not a PCI address.
inline std::string gpu_lock_for_bus_id(const std::string& bus_id) {
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    char tail = 0;
    if (std::sscanf(bus_id.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &tail) != 4) return "";
    char name[96];
    std::snprintf(name, sizeof name, "/tmp/course-grader-gpu-%04x_%02x_%02x_%x.lock", domain, bus, device, function);
    return name;
}

/// The file every grade process of this machine locks while Nsight Compute profiles, whatever GPU it
/// profiles: measured on a host of four H100s, two Nsight Compute runs at once on different GPUs misread the
/// counters (the grader's probe read no replays at all). The grading service binds it into each sandbox.
inline constexpr const char* kNsightComputeLock = "/tmp/course-grader-nsight-compute.lock";

/// The GPU lock's file when none is given: the lock of this process's CUDA device 0 (gpu_lock_for_bus_id),
/// or, where no GPU can be asked, one a set of visible GPUs (CUDA_VISIBLE_DEVICES) in /tmp.
std::string default_gpu_lock();

/// A grading slot held by this process: its number and the lock on <build>/grading/slots/<n>.lock.
struct Slot {
    int number = 0;
    FileLock lock;
};

/// Takes a free slot, waiting for one when all are busy (other grade processes may hold some).
Slot take_slot(const std::string& build_dir);

}  // namespace grading
