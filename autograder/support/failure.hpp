/// @file failure.hpp
/// @brief The classes a graded check can fail with, shared by the lab checks and the runner.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

/// @brief The grading API: what a lab's checks use to classify and report results, and the runner's model.
namespace grading {

/// @brief Why a check did not pass. Ordered by precedence: when a lab fails several ways, the
/// earliest class in this list is the one reported as the lab's reason.
enum class Failure {
    None,                 ///< passed
    DoesNotCompile,       ///< the lab did not build
    RefusedRegion,        ///< a student region breaks the rules (a preprocessor line, closes its function, ...)
    ForbiddenSymbol,      ///< the lab's code defines or calls what the course does not allow (exit, file I/O, cuBLAS, ...)
    GraderIntegrity,      ///< the lab's process did not deliver exactly one record per check through the grader's channel
    LaunchError,          ///< a launch was refused (bad configuration, too many resources, ...)
    IllegalMemoryAccess,  ///< a kernel crashed (out-of-bounds or misaligned access); the CUDA context is lost
    Timeout,              ///< the lab ran past its time limit (a kernel hangs: a barrier not all threads reach?)
    Crash,                ///< the process died without a CUDA error (segfault, abort, uncaught exception)
    OutOfBoundsWrite,     ///< the result may be right, but memory outside the output was written
    WrongResult,          ///< the output differs from the reference
    MemoryError,          ///< compute-sanitizer's memcheck saw an out-of-bounds or misaligned access (results may look right)
    RaceCondition,        ///< compute-sanitizer's racecheck or synccheck saw a shared-memory hazard or a barrier misused
    ImplausibleMeasurement,  ///< a timing beyond what the hardware can do (faster than a copy, work outside the timed stream)
    TechniqueNotUsed,     ///< correct, but not with the technique the lab teaches (e.g. no shared memory)
    TooSlow,              ///< correct, but below the speed threshold
    NotRun,               ///< not run because an earlier failure ended the lab's process
};

/// @brief All classes, in precedence order.
inline constexpr std::array<Failure, 17> kAllFailures = {
    Failure::None,  Failure::DoesNotCompile,   Failure::RefusedRegion,    Failure::ForbiddenSymbol,
    Failure::GraderIntegrity,                  Failure::LaunchError,      Failure::IllegalMemoryAccess,
    Failure::Timeout, Failure::Crash,          Failure::OutOfBoundsWrite, Failure::WrongResult,
    Failure::MemoryError, Failure::RaceCondition, Failure::ImplausibleMeasurement,
    Failure::TechniqueNotUsed, Failure::TooSlow, Failure::NotRun};

/// @brief The stable identifier used in reports: "wrong_result", "too_slow", ...
inline std::string_view to_string(Failure f) {
    switch (f) {
    case Failure::None: return "pass";
    case Failure::DoesNotCompile: return "does_not_compile";
    case Failure::RefusedRegion: return "refused_region";
    case Failure::ForbiddenSymbol: return "forbidden_symbol";
    case Failure::GraderIntegrity: return "grader_integrity";
    case Failure::LaunchError: return "launch_error";
    case Failure::IllegalMemoryAccess: return "illegal_memory_access";
    case Failure::Timeout: return "timeout";
    case Failure::Crash: return "crash";
    case Failure::OutOfBoundsWrite: return "out_of_bounds_write";
    case Failure::WrongResult: return "wrong_result";
    case Failure::MemoryError: return "memory_error";
    case Failure::RaceCondition: return "race_condition";
    case Failure::ImplausibleMeasurement: return "implausible_measurement";
    case Failure::TechniqueNotUsed: return "technique_not_used";
    case Failure::TooSlow: return "too_slow";
    case Failure::NotRun: return "not_run";
    }
    return "unknown";
}

/// @brief Inverse of to_string(); nullopt for an unknown name.
inline std::optional<Failure> failure_from_string(std::string_view s) {
    for (Failure f : kAllFailures)
        if (to_string(f) == s) return f;
    return std::nullopt;
}

/// @brief A human title: "wrong result", "too slow", ...
inline std::string title(Failure f) {
    std::string s(to_string(f));
    for (char& c : s)
        if (c == '_') c = ' ';
    return s;
}

/// @brief The generic hint for a class; checks give sharper ones where they know more.
inline std::string_view default_hint(Failure f) {
    switch (f) {
    case Failure::None: return "";
    case Failure::DoesNotCompile: return "fix the first compiler error in the build log above; later errors often follow from it";
    case Failure::RefusedRegion: return "keep your code inside the student regions as statements (or, in a namespace-scope region, declarations): no preprocessor lines but `#pragma unroll`, and no brace that closes what the region sits in";
    case Failure::ForbiddenSymbol: return "a lab may only launch kernels, use device memory, query the device and compute; remove the call named above (the handout's 'What your code may call' lists what is allowed)";
    case Failure::GraderIntegrity: return "the lab's program did not report every check exactly once: did your code end the process, or print or write where the grader reads?";
    case Failure::LaunchError: return "the launch configuration was refused: check grid/block sizes (at most 1024 threads a block) and shared-memory size";
    case Failure::IllegalMemoryAccess: return "a thread read or wrote outside an array: check every index against its bound (i < n), including in the tail block";
    case Failure::Timeout: return "a kernel never finished (a __syncthreads() that not every thread of the block reaches, or a loop whose bound never changes), or your calls take seconds each: the lab's log ends with where it was stopped";
    case Failure::Crash: return "the program died outside a kernel: look for a host-side null pointer or an exception in the launcher";
    case Failure::OutOfBoundsWrite: return "a thread wrote past the end (or before the start) of the output: guard the store with the same bound as the load";
    case Failure::WrongResult: return "compare the first mismatching indices with your indexing; run that size alone with the printed seed";
    case Failure::MemoryError: return "a thread read or wrote outside its array (or misaligned), even if the value was not used: guard every load, not just the store, with the index's bound; the log names the line";
    case Failure::RaceCondition: return "threads touched the same shared memory without a barrier between them (or a barrier not every thread reaches): add __syncthreads() (or __syncwarp() inside a warp) between the write and the read; the log names both lines";
    case Failure::ImplausibleMeasurement: return "no correct kernel can be this fast: the timed calls must do all their work, on the default stream, while they are timed";
    case Failure::TechniqueNotUsed: return "the graded kernel must stage its data in __shared__ memory, as the lab asks";
    case Failure::TooSlow: return "correct but slow: see the lab's handout for the next optimisation tier";
    case Failure::NotRun: return "an earlier failure ended the lab's process; fix that one first";
    }
    return "";
}

}  // namespace grading
