/// @file isolation.hpp
/// @brief The student's code runs in a process of its own, its launch host: a program that holds the
/// lab's regions and the course's dispatch code, and nothing of the checks (no reference result,
/// expected value, secret, tolerance or check state). The check program allocates every buffer the
/// student's code reads or writes, shares exactly those (each its own allocation, mapped into the host
/// through a file descriptor), sends the call, and verifies the result in its own CUDA context.
///
/// The baselines and library peers run in a second launch host that holds no student code, so that all
/// three contenders of a speed check are timed through the same process boundary.
///
/// In the check program, a lab's interface functions (e.g. lab01::sum_reduce) are stubs that forward to
/// the student's host: the checks call them as they would call the student's code.
#pragma once

#include "kernel_trace.hpp"
#include "timed_counters.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace grading::isolation {

/// @brief The lab id ("01") of a check program linked with its lab's stubs (GRADING_ISOLATED_LAB), else null.
const char* registered_lab();

/// @brief What GRADING_ISOLATED_LAB defines: names the lab whose stubs this program holds.
struct LabRegistration {
    /// @param lab_id e.g. "01"
    explicit LabRegistration(const char* lab_id);
};

/// @brief True in a check program whose lab runs the student's code in a launch host (from the first
/// allocation on; see enable()).
bool enabled();

/// @brief Stops every launch host (SIGSTOP, each its whole process group) until its next request: while
/// this program waits for the GPU lock, nothing of the student's runs, so nothing of it runs beside another
/// grading's measurement.
void stop_hosts();

/// @brief Ends every launch host and waits until each is gone (with its CUDA context and its work): what a
/// program that ends without its exit handlers (std::_Exit, std::abort) does first, so that its runner,
/// which gives the GPU lock back once the program is gone, never gives it back with a host still alive.
void end_hosts();

/// @brief The tool a check program runs under: none (a graded run), compute-sanitizer or Nsight Compute.
enum class HostTool { None, Sanitizer, Profiler };

/// @brief Called by the check program's main before any allocation: installs the shared allocator and
/// names the hosts (`<program>_host` for the student, `lab<id>_peer_host` for the peers, beside the
/// program). @p exact: buffers are handed to the student's code as allocations of exactly their size
/// (the memory and race check's workload), copied in and out around each call. Each host starts under a
/// seccomp filter that lets it start threads but no process, and signal, trace or read no other process
/// and write only in its working folder and the devices, with no capability (confinement.hpp); @p tool: the
/// program runs under compute-sanitizer or Nsight Compute, whose parts in the host may also write
/// temporary files (and, Nsight Compute's, keep the capability that reads the GPU's counters).
void enable(const std::string& program_path, const std::string& lab_id, bool exact, HostTool tool);

/// @brief One argument of a forwarded call: an integer, a device pointer into a buffer of the check
/// program (sent as its allocation and offset), a null pointer, or a small host array of floats.
struct Arg {
    /// @brief What an argument holds.
    enum class Kind {
        Integer,  ///< an integer
        Device,   ///< a device pointer into a shared buffer
        Null,     ///< a null pointer
        Floats    ///< a host array of floats, copied into the message
    } kind = Kind::Integer;  ///< what it holds
    std::int64_t integer = 0;                                                 ///< Kind::Integer
    const void* pointer = nullptr;                                            ///< Kind::Device
    std::vector<float> floats;                                                ///< Kind::Floats
};

/// @brief An integer argument.
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
Arg arg(T v) {
    Arg a;
    a.integer = static_cast<std::int64_t>(v);
    return a;
}
/// @brief A device pointer argument (null is sent as null).
template <class T>
Arg arg(T* p) {
    Arg a;
    a.kind = p ? Arg::Kind::Device : Arg::Kind::Null;
    a.pointer = p;
    return a;
}
/// @brief A host array of floats, copied into the message.
inline Arg host_floats(const float* p, int count) {
    Arg a;
    a.kind = Arg::Kind::Floats;
    if (p && count > 0) a.floats.assign(p, p + count);
    return a;
}

/// @brief A launch host: the student's, or the peers'.
enum class Host { Student, Peers };

/// @brief Starts @p host's process now, if it is not running, and waits until its CUDA context is made
/// (no kernel is launched): so that a measurement with the GPU alone does not wait for it.
void start_host(Host host);

/// @brief Ends @p host's process, if it runs: the next call starts a new one, with nothing of the calls
/// before (the speed benches start so: a lab's timed calls cannot use state its earlier calls left, and
/// the host maps the benches' large buffers afresh; a host that had imported and released many buffers
/// before was seen, on an H200 with driver 580, to write a large buffer imported later where the check
/// program did not see it).
void restart(Host host);

/// @brief Runs operation @p op of host @p host with @p args and waits until the host's device is idle.
/// Throws course::CudaError when the call failed on the GPU, std::runtime_error when the code threw or
/// its process ended (the next call starts a new one). Inside a Batch for @p host, the call is only
/// collected: it runs when the batch is sent.
void call(Host host, const std::string& op, const std::vector<Arg>& args);

/// @brief call() for an operation that returns an integer (outside a Batch): its value. Throws as call()
/// does, and std::runtime_error when the answer carries no integer.
std::int64_t call_int(Host host, const std::string& op, const std::vector<Arg>& args);

/// @brief call() for an operation that returns a string (outside a Batch): its value, as call_int().
std::string call_string(Host host, const std::string& op, const std::vector<Arg>& args);

/// @brief A callback of the check program's that the student's code may ask for during a call
/// (launch_host::call_back): the name it asked for and its integers. It runs in the check program's own
/// context, and the device is waited for before the answer goes back. It throws std::invalid_argument for
/// arguments it refuses (the student's code receives the message as std::invalid_argument).
using Callback = std::function<void(const std::string& name, const std::vector<std::int64_t>& integers)>;

/// @brief While it lives, the student's host may call @p callback back during its calls (Lab 06's detector
/// times the check program's mystery kernels so: their strides never enter the student's process). Outside
/// one, a call back is refused.
class CallbackScope {
public:
    /// @param callback what a call back runs
    explicit CallbackScope(Callback callback);
    ~CallbackScope();
    CallbackScope(const CallbackScope&) = delete;
    CallbackScope& operator=(const CallbackScope&) = delete;
};

/// @brief call() with the arguments converted by arg().
template <class... A>
void forward(Host host, const std::string& op, A... a) {
    call(host, op, std::vector<Arg>{arg(a)...});
}

/// @brief While it lives, the calls made for its host are collected; send() sends them as one request.
/// The host runs them one after another, waiting for its whole device after each, and answers once:
/// so a timed batch of k calls pays the boundary's round trip and the GPU's switches between processes
/// once, not k times. send() throws as call() does, for the first call that failed.
class Batch {
public:
    /// @param host whose calls are collected
    /// @param back_to_back the calls queue one behind another on the device, waited for after the last only
    ///        (for calls whose outputs nothing reads between them: Lab 06's curve); the GPU time of each is
    ///        then the batch's share
    explicit Batch(Host host, bool back_to_back = false);
    ~Batch();
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    /// @brief Sends the collected calls and waits for the answer (nothing to send: returns at once). Returns
    /// the GPU time of each call as its host's events measured it (ms; only a trusted host's are believed).
    std::vector<double> send();

private:
    Host host_;
    bool back_to_back_;
};

/// @brief trace_kernels() for the student's host: the kernels its calls launched while @p work ran;
/// @p graded_static_smem receives the static shared memory of the lab's graded kernel, as the host's
/// own runtime reports it (the fallback where CUPTI cannot trace).
std::optional<std::vector<TracedKernel>> trace(const std::function<void()>& work, std::string* why,
                                               int* graded_static_smem);

/// @brief What the compiler gave the lab's graded kernel, for the report's notes.
struct KernelAttributes {
    int registers = 0;            ///< registers a thread
    std::size_t local_bytes = 0;  ///< local memory (spills) a thread
    std::size_t static_smem = 0;  ///< static shared memory a block
};

/// @brief The attributes of the lab's graded kernel: of @p in_process_kernel where the lab's code runs in
/// this process, else as the student's host reports them (informative only: that process is the
/// student's). Nothing when they cannot be had.
std::optional<KernelAttributes> graded_attributes(const void* in_process_kernel);

/// @brief Runs the grader's probe kernel (profile_probe.hpp) in the student's host and waits for it: in the
/// profile workload it separates the calls in Nsight Compute's report, which lists each process's kernels
/// in order, one process after another.
void probe_in_student_host();

/// @brief Reads a sample of 32 words of @p bytes of device memory at @p d_ptr (positions drawn from
/// @p seed) and waits for it: a kernel of the check program's own, so it runs only once the GPU has left
/// every other process's work or preempted it. Used as the end of a timed interval.
std::vector<std::uint32_t> sample_words(const void* d_ptr, std::size_t bytes, std::uint64_t seed);

/// @brief Thrown by time_across() when the GPU stays busy with another process's work after the launch hosts
/// were stopped: work the student's process left queued would be timed as someone else's.
class GpuLeftBusy : public std::runtime_error {
public:
    /// @param what the message for the student
    explicit GpuLeftBusy(const std::string& what);
};

/// @brief Thrown by time_across() (where no handler was set: set_disturbed_handler()) when the GPU stays busy,
/// or its performance monitors stay taken, after the student's process and its work were ended: something
/// outside this grading disturbed the measurement, which then says nothing about the student's code.
class GpuDisturbed : public std::runtime_error {
public:
    /// @param what what was found
    explicit GpuDisturbed(const std::string& what);
};

/// @brief What a disturbed measurement does instead of throwing GpuDisturbed: a check program ends itself,
/// with no verdict, so that its runner measures again (grading_main.cpp). @p handler must not return.
void set_disturbed_handler(std::function<void(const std::string&)> handler);

/// @brief Runs @p timed (a timing across the boundary, time_across()) and, where it blames the student's
/// process (GpuLeftBusy, or timed_counters::CountersTaken), runs it once more, that process started anew
/// (the blame ended it) and first given what the lab's calls need in it by @p again (the state an earlier
/// call set there): the blame stands only when found twice in a row. Work from outside this grading that
/// happened to stop while the student's process was being ended looks like the student's once, not twice;
/// a process that leaves work queued or takes the monitors does so again.
template <class F, class Again>
auto blamed_twice(F&& timed, Again&& again) -> decltype(timed()) {
    try {
        return timed();
    } catch (const GpuLeftBusy&) {
    } catch (const timed_counters::CountersTaken&) {
    }
    again();
    return timed();
}

/// @brief blamed_twice() for a timing whose calls need nothing set in the student's process.
template <class F>
auto blamed_twice(F&& timed) -> decltype(timed()) {
    return blamed_twice(std::forward<F>(timed), [] {});
}

/// @brief How many of a contender's timed batches time_across() samples with the GPU's performance monitors.
inline constexpr int kSampledRepetitions = 3;

/// @brief One contender of a speed check timed across the boundary.
struct Contender {
    std::function<void(int slot)> run;  ///< one call (a forwarded one) on input slot @p slot
    Host host;                          ///< where it runs, for the boundary's calibration
    /// @brief Its output for input slot @p slot, in the check program's memory (sampled at the end).
    std::function<const void*(int slot)> output;
    std::size_t output_bytes;  ///< the output's size
    /// @brief Whether the boundary's cost is learnt from this contender's calls (the library peer: a
    /// process of the course's own, and a kernel like the student's in kind and length).
    bool calibrates = false;
    /// @brief Whether its batches run back to back (Batch): the GPU queues the calls of a batch without the
    /// host waiting between them, so the boundary's cost is paid once a batch, not once a call.
    bool back_to_back = false;
    /// @brief Calls a batch of this contender, all on input slot 0 (0: time_across's @p slots, one on each).
    /// A short call is timed in a batch long enough that the boundary's cost, paid once a batch, is small.
    int calls = 0;
};

/// @brief course::time_interleaved() across the process boundary, a batch of @p slots calls a run (or the
/// contender's own number of calls, Contender::calls). Each run starts with the whole GPU idle and is
/// timed on the host's clock from the request to the end of a sample of each call's output taken by the
/// check program's own kernel (sample_words()). Every batch starts with the launch hosts stopped (SIGSTOP;
/// a host continues only for its own requests) and waits until no other process's work is left on the GPU:
/// the student's process cannot keep the GPU busy while the baseline and the peer are timed. When work does
/// not drain, the student's process is ended, with its work: GpuLeftBusy where the GPU is quiet then (the
/// work was the student's), else GpuDisturbed (it came from outside this grading; likewise for monitors
/// that cannot be taken back). What the boundary adds to a batch is learnt from the
/// contender that `calibrates` (in the peers' process): the median excess of its batches' host time over
/// the GPU time its own events gave its calls. That excess comes off every contender's batches, so that
/// each call is timed as the in-process events would time it; @p boundary_ms receives it divided by
/// @p slots (ms a call, where every contender's batch has @p slots calls).
/// @p before_each and @p after_each are called for every call of the batch (contender, slot), before the
/// batch is sent and after it finished. When an output changes after its sample was taken, its process
/// returned before its work was done: @p late_output receives the contender's index (first such run only).
/// With @p counted (one Totals a contender) and the monitors available, each contender in the student's host
/// runs kSampledRepetitions batches more, at random places among its @p repetitions and run exactly like
/// them, that the GPU's performance monitors sample (timed_counters.hpp) from after the GPU went quiet to
/// after the clock stopped; their counts are summed into its Totals (calls included) and their times are
/// left out (sampling costs the GPU a little, and only the student's batches are sampled). Throws
/// timed_counters::CountersTaken when the monitors, readable at the start, cannot be sampled.
std::vector<std::vector<double>> time_across(const std::vector<Contender>& contenders, int slots, int warmup,
                                             int repetitions,
                                             const std::function<void(std::size_t, int)>& before_each,
                                             const std::function<void(std::size_t, int)>& after_each,
                                             std::optional<std::size_t>* late_output, double* boundary_ms = nullptr,
                                             std::vector<timed_counters::Totals>* counted = nullptr);

}  // namespace grading::isolation

/// @brief In a lab's interface file, on the check program's side: this program runs the lab's code in
/// launch hosts (isolation.hpp).
#define GRADING_ISOLATED_LAB(id) static const ::grading::isolation::LabRegistration grading_isolated_lab_registration(id)
