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
/// Under compute-sanitizer and Nsight Compute (@p under_tool) the host is confined the same way, but exec
/// is not restricted: the tools follow the processes they watch by taking part in their exec, and a
/// program the host execs stays under the filter (still one process, signalling nothing else, tracing
/// nothing). So the tool's own process, which gives the verdict in its exit status, is out of the host's
/// reach, and nothing of the host's outlives the run. (The host can still write the files it can name.)
#pragma once

namespace grading::isolation {

/// @brief Installs the filter in the calling process (a child of the check program, after fork, before
/// exec: async-signal-safe, the filter is built on the stack). Returns whether it is in place (false on a
/// system without seccomp).
bool confine_launch_host(const char* exec_path, bool under_tool = false);

}  // namespace grading::isolation
