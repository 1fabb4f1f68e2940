/// @file profile_probe.hpp
/// @brief The grader's probe kernel for the bank-conflict check (see runner/profile.hpp).
#pragma once

namespace grading {

/// @brief Launches grading::course_bank_conflict_probe once and waits for it: its shared-memory loads
/// are 2-way bank-conflicted (half their wavefronts replays) and its stores conflict-free.
void run_profile_probe();

}  // namespace grading
