/// @file launch_host.hpp
/// @brief The main of a launch host (isolation.hpp): a process that maps the buffers the check program
/// shares, runs the operations it names, waits for the whole device after each, and answers how it went.
/// A lab's interface file lists its operations with entry():
///
///     int main(int argc, char** argv) {
///         return grading::launch_host::serve(argc, argv, {{"sum_reduce", grading::launch_host::entry(&lab01::sum_reduce)}},
///                                            lab01::graded_kernel());
///     }
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace grading::launch_host {

/// @brief What an operation's arguments decode to: pointers into the mapped buffers (or host arrays
/// the message carried), and integers.
class Arguments {
public:
    /// @param encoded the call's "args"
    /// @param resolve turns a buffer id and offset into a local device pointer (throws when unknown)
    Arguments(const nlohmann::json& encoded, std::function<void*(std::uint64_t id, std::uint64_t offset)> resolve);

    /// @brief How many there are.
    std::size_t size() const { return values_.size(); }

    /// @brief Argument @p i as type T: an integral type (range-checked) or a pointer.
    template <class T>
    T get(std::size_t i) const {
        const Value& v = values_.at(i);
        if constexpr (std::is_pointer_v<T>) {
            if (v.integer_only) throw std::invalid_argument("argument " + std::to_string(i) + " is not a pointer");
            return static_cast<T>(v.pointer);
        } else {
            static_assert(std::is_integral_v<T>, "an operation's parameters are pointers and integers");
            if (!v.integer_only) throw std::invalid_argument("argument " + std::to_string(i) + " is not an integer");
            if (v.integer < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
                (v.integer > 0 && static_cast<std::uint64_t>(v.integer) > std::numeric_limits<T>::max()))
                throw std::invalid_argument("argument " + std::to_string(i) + " is out of its type's range");
            return static_cast<T>(v.integer);
        }
    }

private:
    struct Value {
        bool integer_only = false;
        std::int64_t integer = 0;
        void* pointer = nullptr;
    };
    std::vector<Value> values_;
    std::vector<std::vector<float>> arrays_;  // host arrays the message carried
};

/// @brief One operation: decodes its arguments, runs, and returns its value (null for none), which the
/// answer carries as "value".
using Entry = std::function<nlohmann::json(const Arguments&)>;

/// @brief Calls @p f with the decoded arguments and returns its value as JSON (a helper of entry()).
template <class R, class... P, std::size_t... I>
nlohmann::json apply(R (*f)(P...), const Arguments& a, std::index_sequence<I...>) {
    if constexpr (std::is_void_v<R>) {
        f(a.get<P>(I)...);
        return nullptr;
    } else {
        static_assert(std::is_integral_v<R> || std::is_same_v<R, std::string>,
                      "an operation returns nothing, an integer or a string");
        return nlohmann::json(f(a.get<P>(I)...));
    }
}

/// @brief The entry of a function whose parameters are pointers and integers, and which returns nothing,
/// an integer or a string.
template <class R, class... P>
Entry entry(R (*f)(P...)) {
    return [f](const Arguments& a) {
        if (a.size() != sizeof...(P)) throw std::invalid_argument("wrong number of arguments");
        return apply(f, a, std::index_sequence_for<P...>{});
    };
}

/// @brief During an operation, asks the check program to run its callback @p name with @p integers (e.g.
/// Lab 06's mystery kernel, which must never be in this process) and waits until it ran and the check
/// program's device is idle. The device of this process is waited for first, so that work (an event) this
/// process enqueued before the call is done before the check program's starts, and work it enqueues after
/// starts after it. Throws std::invalid_argument with the check program's message when the callback refused
/// its arguments, std::runtime_error when it failed otherwise or the channel broke.
void call_back(const std::string& name, const std::vector<std::int64_t>& integers);

/// @brief Runs a reduction peer that sizes its temporary storage for an element count (a CUB wrapper:
/// constructible from the count, callable as `peer(in, out, n)`), made again only when a larger count
/// comes: the peers' host's entry for it is `entry(&sized_peer<Peer>)`.
template <class Peer>
void sized_peer(const float* d_in, float* d_out, std::size_t n) {
    static std::unique_ptr<Peer> peer;
    static std::size_t capacity = 0;
    if (!peer || n > capacity) {
        peer.reset();
        peer = std::make_unique<Peer>(n);
        capacity = n;
    }
    (*peer)(d_in, d_out, n);
}

/// @brief Serves the check program on the channel named by `--channel FD` until it closes.
/// @param argc the host's argument count
/// @param argv the host's arguments (`--channel FD`)
/// @param ops the operations by name
/// @param graded_kernel the lab's graded kernel (reported with a trace), or null
/// @return the process's exit status
int serve(int argc, char** argv, const std::map<std::string, Entry>& ops, const void* graded_kernel);

}  // namespace grading::launch_host
