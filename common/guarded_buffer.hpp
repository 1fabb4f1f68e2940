/// @file guarded_buffer.hpp
/// @brief Output buffers that catch unwritten elements and writes outside the output.
///
/// A GuardedBuffer is a device allocation laid out as
/// `[front guard | output | back guard]`. poison() fills all three with the
/// byte 0xFF (a NaN for float, -1 for integers), so an output element the
/// kernel never wrote reads back as NaN and fails every comparison, and any
/// byte of a guard zone that changed proves a write outside the output.
#pragma once

#include "device_buffer.hpp"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

/// @brief The byte every poisoned buffer is filled with.
inline constexpr unsigned char kPoisonByte = 0xFF;

/// @brief Where a write outside the output was found.
struct GuardViolation {
    bool before;              ///< true: in the front guard (index < 0), false: in the back guard (index >= size)
    long long element_offset; ///< element index relative to the output's first element (negative in the front guard)
    /// @brief One-line description, e.g. "wrote out[-1] (front guard zone)".
    std::string describe() const {
        return "wrote out[" + std::to_string(element_offset) + "] (" + (before ? "front" : "back") +
               " guard zone, outside the output)";
    }
};

/// @brief A device output of `size` elements with poisoned guard zones on both sides.
template <class T>
class GuardedBuffer {
public:
    /// @param count elements of output
    /// @param guard elements of guard zone on each side (at least one 256-byte line by default)
    explicit GuardedBuffer(std::size_t count, std::size_t guard = 256 / sizeof(T) > 0 ? 256 / sizeof(T) : 1)
        : count_(count), guard_(guard), storage_(count + 2 * guard) {
        poison();
    }

    /// @brief Device pointer to the first output element (past the front guard).
    T* data() noexcept { return storage_.data() + guard_; }
    /// @brief Number of output elements.
    std::size_t size() const noexcept { return count_; }

    /// @brief Fills output and guards with kPoisonByte. Call before every run under test.
    void poison() { storage_.fill_bytes(kPoisonByte); }

    /// @brief Copies the output (not the guards) to the host.
    std::vector<T> download() const {
        std::vector<T> host(count_);
        if (count_ > 0)
            CUDA_CHECK(cudaMemcpy(host.data(), storage_.data() + guard_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }

    /// @brief The first changed guard element, if any (front guard searched nearest-first).
    std::optional<GuardViolation> check_guards() const {
        const std::vector<T> all = storage_.download();
        const auto* bytes = reinterpret_cast<const unsigned char*>(all.data());
        auto changed = [&](std::size_t element) {
            for (std::size_t b = 0; b < sizeof(T); ++b)
                if (bytes[element * sizeof(T) + b] != kPoisonByte) return true;
            return false;
        };
        for (std::size_t i = guard_; i-- > 0;)
            if (changed(i)) return GuardViolation{true, static_cast<long long>(i) - static_cast<long long>(guard_)};
        for (std::size_t i = guard_ + count_; i < all.size(); ++i)
            if (changed(i)) return GuardViolation{false, static_cast<long long>(i - guard_)};
        return std::nullopt;
    }

private:
    std::size_t count_;
    std::size_t guard_;
    DeviceBuffer<T> storage_;
};

/// @brief Elements of poison the checks place after every input: a kernel that reads past the end of
/// its input picks up NaN (for floats), and its result shows it.
inline constexpr std::size_t kInputTail = 64;

/// @brief Poisons the @p tail elements of @p d after its first @p n (it must hold n + tail).
template <class T>
void poison_tail(DeviceBuffer<T>& d, std::size_t n, std::size_t tail = kInputTail) {
    if (d.size() < n + tail) throw std::logic_error("poison_tail: the buffer has no room for the tail");
    CUDA_CHECK(cudaMemset(d.data() + n, kPoisonByte, tail * sizeof(T)));
}

/// @brief A device copy of @p host followed by @p tail poisoned elements.
template <class T>
DeviceBuffer<T> upload_with_poisoned_tail(const std::vector<T>& host, std::size_t tail = kInputTail) {
    DeviceBuffer<T> d(host.size() + tail);
    if (!host.empty())
        CUDA_CHECK(cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    poison_tail(d, host.size(), tail);
    return d;
}

}  // namespace course
