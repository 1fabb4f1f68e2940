/// @file device_memory.hpp
/// @brief Where DeviceBuffer's memory comes from: cudaMalloc, unless a program installs its own
/// allocator (a lab's check program does, so that every buffer it hands to the student's process is an
/// allocation of its own that can be shared without exposing any other; see autograder/support/isolation.hpp).
#pragma once

#include <cstddef>

namespace course {

/// @brief An allocator of device memory: allocate returns device memory of at least @p bytes (throwing
/// on failure), release frees what allocate returned.
struct DeviceAllocator {
    void* (*allocate)(std::size_t bytes) = nullptr;  ///< never returns null for bytes > 0
    void (*release)(void* ptr) = nullptr;             ///< must not throw
};

/// @brief Allocates @p bytes of device memory with the installed allocator (cudaMalloc by default).
void* device_allocate(std::size_t bytes);

/// @brief Frees memory from device_allocate() with the allocator that gave it.
void device_release(void* ptr) noexcept;

/// @brief Installs @p a for every later DeviceBuffer; install before the first allocation.
void set_device_allocator(const DeviceAllocator& a);

}  // namespace course
