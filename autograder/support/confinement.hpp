/// @file confinement.hpp
/// @brief What a launch host may do beyond its own process: nothing. Before a host runs anything of the
/// student's (its static constructors included), the check program's child that is about to become it
/// installs a seccomp filter, kept across exec:
/// - threads may be started (they stop, continue and end with the process), processes may not: no fork,
///   vfork, clone without CLONE_THREAD, exec, new session or process group, so nothing of the student's
///   outlives the host or escapes being stopped while others are timed (isolation::time_across);
/// - no other process may be signalled, traced or read (the check program and the runner among them).
/// The one exec allowed is the host's own, made right after with the path at @p exec_path: an address in
/// the check program's memory, which the host cannot know; any other exec ends the process, so a guess
/// gets no second try.
///
/// The same filter holds under compute-sanitizer and Nsight Compute: their parts in the check program
/// follow the host into its one exec, and the host can neither exec itself again without them (which would
/// hide its kernels from the tool) nor reach the tool's process, whose exit status gives the memory
/// check's verdict.
#pragma once

namespace grading::isolation {

/// @brief Installs the filter in the calling process (a child of the check program, after fork, before
/// exec: async-signal-safe, the filter is built on the stack). Returns whether it is in place (false on a
/// system without seccomp).
bool confine_launch_host(const char* exec_path);

/// @brief Drops the calling process's capabilities (all of them, from its bounding set too, so that the
/// exec that follows gives none back, even to root), but CAP_SYS_ADMIN when @p keep_profiling: Nsight
/// Compute reads the GPU's counters from inside the process it profiles, which a driver that keeps them for
/// the administrator allows only with it. What it takes away from a host that runs as root: reading or
/// writing the check program's memory through /proc/PID/mem (a process that is not dumpable is open
/// there to CAP_SYS_PTRACE), and passing over files' permissions. Async-signal-safe, like the others.
/// Returns whether the process holds no capability but the one kept.
bool drop_capabilities(bool keep_profiling);

/// @brief Confines the calling process's changes to the file system (Landlock, kept across exec) to the
/// devices, its working folder and, @p under_tool, the folders for temporary files: nothing else can be
/// written, made, removed or renamed, so the grader's programs and files (its check programs, the peers'
/// host, the rubric, the course's sources, other students' files) stay out of the host's reach, whoever
/// it runs as. Async-signal-safe, like confine_launch_host. Returns whether it is in place (false on a
/// system without Landlock).
bool restrict_host_writes(bool under_tool);

}  // namespace grading::isolation
