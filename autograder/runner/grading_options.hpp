/// @file grading_options.hpp
/// @brief How a run of the runner grades: its build folder, time limits, the modes and programs of the
/// memory and race check and of the Nsight Compute checks, the instructor's secret and the GPU lock.
/// grade fills them from its command line; every step of a grading reads them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace grading {

struct GradingOptions {
    std::string build_dir;
    int jobs = 0;
    bool no_build = false, quick = false;
    double timeout_s = 60;
    /// @brief Whether the time limit was given (--timeout): then it holds for every pass as it is; else a lab's
    /// measured pass gets at least its rubric's "measured_pass" seconds.
    bool timeout_given = false;
    std::string sanitizer_mode = "auto";
    std::optional<std::string> sanitizer;
    double sanitizer_timeout_s = 180;
    std::string profile_mode = "auto";
    std::optional<std::string> ncu;
    double profile_timeout_s = 180;
    std::optional<std::string> secret;  // the instructor's secret (--secret-file); never given to a lab as it is
    std::string gpu_lock;
    /// @brief Paths a lab's compile must not be able to read besides the course's own (the secret file, the
    /// roster, the gradebook): a compile whose confinement would let it read one stops (confined_compile.cpp).
    std::vector<std::string> protect;
};

}  // namespace grading
