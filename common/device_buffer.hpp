/// @file device_buffer.hpp
/// @brief RAII ownership of device memory: nobody writes cudaMalloc/cudaFree pairs by hand.
#pragma once

#include "cuda_check.hpp"
#include "device_memory.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace course {

/// @brief A typed array in device memory, freed when it goes out of scope.
///
/// Move-only. The contents are uninitialised after construction; fill them
/// with upload(), fill_bytes() or a kernel.
template <class T>
class DeviceBuffer {
public:
    /// @brief An empty buffer: no allocation, data() is null.
    DeviceBuffer() = default;

    /// @brief Allocates room for @p count elements (no allocation when 0).
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count_ > 0) ptr_ = static_cast<T*>(device_allocate(bytes()));
    }

    /// @brief Allocates and copies @p host to the device.
    explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }

    /// @brief Not copyable: exactly one owner frees the memory.
    DeviceBuffer(const DeviceBuffer&) = delete;
    /// @brief Not copyable: exactly one owner frees the memory.
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    /// @brief Takes ownership of @p other's memory.
    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    /// @brief Releases this buffer's memory and takes @p other's.
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        DeviceBuffer tmp(std::move(other));
        swap(tmp);
        return *this;
    }
    /// @brief Frees the memory (errors are left for the next checked call).
    ~DeviceBuffer() {
        device_release(ptr_);  // never throws from a destructor; errors surface at the next check
    }

    /// @brief Device pointer to the first element.
    T* data() noexcept { return ptr_; }
    /// @brief Device pointer to the first element.
    const T* data() const noexcept { return ptr_; }
    /// @brief Number of elements.
    std::size_t size() const noexcept { return count_; }
    /// @brief Size in bytes.
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

    /// @brief Copies @p host (at most size() elements) to the start of the buffer.
    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    /// @brief Copies @p count elements from @p host to the start of the buffer.
    void upload(const T* host, std::size_t count) {
        if (count > count_) throw std::length_error("DeviceBuffer::upload: more elements than the buffer holds");
        if (count > 0) CUDA_CHECK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    }
    /// @brief Copies the whole buffer to a new host vector.
    std::vector<T> download() const {
        std::vector<T> host(count_);
        if (count_ > 0) CUDA_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
        return host;
    }
    /// @brief Sets every byte of the buffer to @p byte.
    void fill_bytes(unsigned char byte) {
        if (count_ > 0) CUDA_CHECK(cudaMemset(ptr_, byte, bytes()));
    }

private:
    void swap(DeviceBuffer& other) noexcept {
        std::swap(ptr_, other.ptr_);
        std::swap(count_, other.count_);
    }
    T* ptr_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace course
