/// @file whereabouts.hpp
/// @brief What a check program is doing, said in its log when it is stopped at its time limit.
///
/// The runner's keeper (runner/process.hpp) sends kSayWhereSignal to the program it ends at the time limit,
/// and gives it a moment before the kill: the program then writes one line to its standard error (the lab's
/// log), for example "at the time limit this program was: timing across the process boundary: waiting for a
/// quiet GPU (batch 57, contender 1) in the check "speed: close to cub::DeviceReduce::Sum"". A student's
/// kernel that never returns shows as a call of the student's code; a wait of the grader's own shows as that.
#pragma once

#include <csignal>
#include <string>

namespace grading::whereabouts {

/// @brief The signal that asks a check program to say what it is doing (its default action ends any
/// program that did not install() the handler, which is then killed anyway).
inline constexpr int kSayWhereSignal = SIGUSR1;

/// @brief Installs the handler of kSayWhereSignal: one line to standard error, with async-signal-safe calls only.
void install();

/// @brief Sets the check being run (its name, copied; cut at 200 bytes).
void set_check(const std::string& name) noexcept;

/// @brief Sets the batch and contender of the timing under way (-1, -1: none).
void set_batch(int batch, int contender) noexcept;

/// @brief What the program is doing for as long as it lives (a string literal, kept by pointer); what it
/// did before is said again once it ends.
class Doing {
public:
    /// @param what e.g. "waiting for the student's process to answer a call"
    explicit Doing(const char* what) noexcept;
    ~Doing();
    Doing(const Doing&) = delete;
    Doing& operator=(const Doing&) = delete;
    /// @brief Says @p what instead, until the next now() or the end of this Doing.
    void now(const char* what) noexcept;

private:
    const char* before_;
};

}  // namespace grading::whereabouts
