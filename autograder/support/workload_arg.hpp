/// @file workload_arg.hpp
/// @brief The one rule for a value a lab's check hands to its workload runs (grading::hand_to_workloads):
/// the lab program refuses others when they are handed over or given back (`--workload-arg`), and the
/// runner drops others from the records.
#pragma once

#include <algorithm>
#include <string>

namespace grading {

/// @brief A name of lower-case letters, digits and '-', 1 to 32 characters.
inline bool workload_name_allowed(const std::string& name) {
    return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
           });
}

/// @brief An allowed name and a printable value of at most 120 characters.
inline bool workload_arg_allowed(const std::string& name, const std::string& value) {
    return workload_name_allowed(name) && value.size() <= 120 &&
           std::all_of(value.begin(), value.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

}  // namespace grading
