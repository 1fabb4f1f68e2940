/// @file timed_counters.hpp
/// @brief The GPU's performance monitors, sampled by the check program while the student's timed calls run.
///
/// Nsight Compute profiles calls of its own, replayed one launch at a time in a process it instruments: a
/// submission can tell those calls from the timed ones (by the gaps between launches, by the profiler in its
/// process) and be honest only there. PM sampling (CUPTI) reads the device's counters at a fixed interval,
/// whoever's work runs: the check program samples the very batches it times, in the student's process,
/// which nothing tells apart from any other batch. What the counters show is then judged against the
/// technique (shared-memory wavefronts for each block, for each cycle the SMs were busy, for each memory
/// instruction).
///
/// Whether the counters can be read is decided once, at the start of a graded run, before any student code
/// runs (open()): a GPU whose counters are not readable reports the judgments as not made; a sampling that
/// fails later is the submission's doing (CountersTaken).
#pragma once

#include <cstdio>
#include <future>
#include <stdexcept>
#include <string>

namespace grading::timed_counters {

/// @brief Sums of the counters over the sampled intervals of one or more windows.
struct Totals {
    double shared_load_wavefronts = 0;   ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
    double shared_store_wavefronts = 0;  ///< l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
    double sm_active_cycles = 0;         ///< sm__cycles_active.sum: cycles an SM had work, all SMs
    double lsu_instructions = 0;         ///< sm__inst_executed_pipe_lsu.sum: warp memory instructions
    double blocks = 0;                   ///< sm__ctas_launched.sum
    double dram_read_bytes = 0;          ///< dram__bytes_read.sum
    double dram_write_bytes = 0;         ///< dram__bytes_write.sum
    /// Metrics taken where the monitors take them beside the others (0 where not): sm__warps_launched_shader_cs.sum
    /// and lts__t_sectors_srcunit_tex.sum (warps(), l2_sectors_from_l1()).
    double optional[2] = {0, 0};
    double samples = 0;                  ///< sampling intervals summed
    double windows = 0;                  ///< windows summed
    double calls = 0;                    ///< the student's calls these windows held (set by the caller)
    double lead_ms = 0;                  ///< host time the windows took before their batches (starting)
    double trail_ms = 0;                 ///< host time they took after them (stopping)

    /// @brief Adds @p o's counts, windows and calls to these.
    Totals& operator+=(const Totals& o) {
        shared_load_wavefronts += o.shared_load_wavefronts;
        shared_store_wavefronts += o.shared_store_wavefronts;
        sm_active_cycles += o.sm_active_cycles;
        lsu_instructions += o.lsu_instructions;
        blocks += o.blocks;
        dram_read_bytes += o.dram_read_bytes;
        dram_write_bytes += o.dram_write_bytes;
        for (int k = 0; k < 2; ++k) optional[k] += o.optional[k];
        samples += o.samples;
        windows += o.windows;
        calls += o.calls;
        lead_ms += o.lead_ms;
        trail_ms += o.trail_ms;
        return *this;
    }
    /// @brief Warps launched (0 where not counted).
    double warps() const { return optional[0]; }
    /// @brief L2 sectors the SMs' L1 asked for: global-memory traffic (0 where not counted).
    double l2_sectors_from_l1() const { return optional[1]; }
    /// @brief Whether the monitors counted any work in these windows: windows that counted no busy SM cycle
    /// while calls were timed were not counted (another profiler held the monitors) and judge nothing.
    bool counted_work() const { return sm_active_cycles > 0; }
    /// @brief Shared-memory load wavefronts for each SM cycle with work: the share of the busy time the
    /// shared-memory pipe was serving loads (about 1 for a kernel bound by its shared loads).
    double shared_load_share() const { return sm_active_cycles > 0 ? shared_load_wavefronts / sm_active_cycles : 0; }
    /// @brief Shared-memory load wavefronts for each warp-level memory instruction.
    double wavefronts_per_memory_instruction() const {
        return lsu_instructions > 0 ? shared_load_wavefronts / lsu_instructions : 0;
    }
    /// @brief One line of the figures, for the report.
    std::string describe() const;
};

/// @brief "" when @p t shows at least @p loads shared-memory load wavefronts and @p stores store
/// wavefronts for each warp-level memory instruction (or counted no memory instruction), else what it
/// shows instead: the test of a tile staged through shared memory, not served from global memory, L1 or
/// registers alone.
inline std::string staged_shortfall(const Totals& t, double loads, double stores) {
    if (!(t.lsu_instructions > 0)) return "";
    const double ld = t.shared_load_wavefronts / t.lsu_instructions, st = t.shared_store_wavefronts / t.lsu_instructions;
    if (ld >= loads && st >= stores) return "";
    char text[320];
    std::snprintf(text, sizeof text,
                  "shared-memory wavefronts for each memory instruction: %.3f loads, %.3f stores; the technique needs at "
                  "least %.3f and %.3f: most of the timed work did not go through shared memory",
                  ld, st, loads, stores);
    return text;
}

/// @brief "" when @p t shows, for each call it held, at least @p loads shared-memory load wavefronts and
/// @p stores store wavefronts (or held no call), else what it shows instead, with @p need saying what the
/// floor stands for. A wavefront moves at most 32 words (128 bytes), so a call that puts every one of W
/// words through shared memory shows at least W / 32 of each whatever its layout or vector width: the test
/// of a tile used for all of the input, not for a part of it.
inline std::string per_call_shortfall(const Totals& t, double loads, double stores, const std::string& need) {
    if (!(t.calls > 0)) return "";
    const double ld = t.shared_load_wavefronts / t.calls, st = t.shared_store_wavefronts / t.calls;
    if (ld >= loads && st >= stores) return "";
    char text[480];
    std::snprintf(text, sizeof text,
                  "shared-memory wavefronts for each call: %.4g loads, %.4g stores; %s needs at least %.4g and %.4g: part "
                  "of the work did not go through shared memory",
                  ld, st, need.c_str(), loads, stores);
    return text;
}

/// @brief "" when @p t shows, for each call it held, at least @p per_call shared-memory load wavefronts and
/// as many store wavefronts (or held no call), else what it shows instead: the test of a reduction whose
/// blocks combine their warps' partials in shared memory in every call, one that does its work with shuffles
/// and global atomics alone showing none.
/// And, where @p per_block > 0 and blocks were counted, at least @p per_block load and store wavefronts for
/// each block launched: every block combines its warps in shared memory, in every call (a call that does so
/// in some blocks, or in its first call of a batch only, shows less).
/// And, where @p per_warp > 0 and warps were counted, at least @p per_warp store wavefronts for each warp
/// launched but one a block: every warp's partial meets the others in shared memory (a block whose warps
/// add their partials to the output with atomics of their own, one of them storing a token, shows one
/// store a block).
inline std::string combined_shortfall(const Totals& t, double per_call, double per_block = 0, double per_warp = 0) {
    if (!(t.calls > 0)) return "";
    const double ld = t.shared_load_wavefronts / t.calls, st = t.shared_store_wavefronts / t.calls;
    char text[360];
    if (ld < per_call || st < per_call) {
        std::snprintf(text, sizeof text,
                      "shared-memory wavefronts for each call: %.1f loads, %.1f stores; a reduction whose blocks combine "
                      "their warps' partials in shared memory shows at least %.0f of each: the timed calls did not",
                      ld, st, per_call);
        return text;
    }
    if (!(per_block > 0) || !(t.blocks > 0)) return "";
    const double ld_b = t.shared_load_wavefronts / t.blocks, st_b = t.shared_store_wavefronts / t.blocks;
    if (ld_b < per_block || st_b < per_block) {
        std::snprintf(text, sizeof text,
                      "shared-memory wavefronts for each block launched: %.2f loads, %.2f stores (%.0f blocks); a "
                      "reduction whose every block combines its warps' partials in shared memory shows at least %.2f of "
                      "each: some blocks or calls did not",
                      ld_b, st_b, t.blocks, per_block);
        return text;
    }
    const double others = t.warps() - t.blocks;  // warps launched but one a block (none where not counted)
    if (!(per_warp > 0) || !(others > 0)) return "";
    const double st_w = t.shared_store_wavefronts / others;
    if (st_w >= per_warp) return "";
    std::snprintf(text, sizeof text,
                  "%.2f shared-memory store wavefronts for each warp launched but one a block (%.0f warps in %.0f "
                  "blocks); a reduction whose every warp's partial meets the others' in shared memory shows at least "
                  "%.2f: the warps of a block did not combine there",
                  st_w, t.warps(), t.blocks, per_warp);
    return text;
}

/// @brief "" when @p t shows, for each call it held, at most @p factor times @p conflict_free shared-memory
/// load wavefronts and as many store wavefronts (or held no call), else what it shows instead: the test of
/// a tile read and written without bank conflicts, @p conflict_free being what a call needs at one
/// wavefront for every 32 words.
inline std::string conflicted_excess(const Totals& t, double conflict_free, double factor) {
    if (!(t.calls > 0) || !(conflict_free > 0)) return "";
    const double ld = t.shared_load_wavefronts / t.calls / conflict_free, st = t.shared_store_wavefronts / t.calls / conflict_free;
    if (ld <= factor && st <= factor) return "";
    char text[320];
    std::snprintf(text, sizeof text,
                  "%.2fx the shared-memory load wavefronts and %.2fx the store wavefronts a conflict-free tile needs (one "
                  "for every 32 words) in each call; at most %.2fx: the timed calls' tile has bank conflicts",
                  ld, st, factor);
    return text;
}

/// @brief Thrown by Window when the counters, readable at the start, cannot be sampled now: another
/// process holds the GPU's performance monitors.
struct CountersTaken : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// @brief At the start of a graded run, before any student code: takes the device's PM sampling (for the
/// whole run, unless given back: give_back()) and configures it. Returns false, with the reason
/// in unavailable_reason(), where this GPU or machine does not allow it.
bool open();

/// @brief Gives the device's PM sampling back (after open()), while this program shares the GPU with other
/// gradings, whose own measurements take it in turn (the device has one sampler); take_back() takes it
/// again before the next measurement, with the GPU to this program alone (grading::GpuAlone).
void give_back();

/// @brief Lets the next Window take the PM sampling back after give_back() (before its batch's time starts).
/// Where it cannot (something took it meanwhile: only the processes running student code run beside this
/// program's measurements), that Window throws CountersTaken.
void take_back();

/// @brief Whether this program holds the device's PM sampling now (opened, and not given back or taken
/// back since).
bool held();

/// @brief Instead of open(): the monitors are not used in this run, for @p reason.
void turn_off(const std::string& reason);

/// @brief Whether open() succeeded.
bool available();

/// @brief Why the counters cannot be read ("" when they can, or when open() was never called).
const std::string& unavailable_reason();

/// @brief Samples the device from construction to stop(): place it around a batch, outside the timed
/// interval. Without available(), does nothing and its reading is empty Totals.
class Window {
public:
    Window();
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;
    /// @brief Stops sampling. What the counters counted meanwhile (windows = 1) is decoded and evaluated on
    /// a thread of its own: the future holds it, or throws CountersTaken where that failed.
    std::future<Totals> stop();

    /// @brief Host time the start took, before the batch may begin (what a batch that is not sampled is
    /// given too, isolation::time_across(), so that nothing tells the two apart).
    double lead_ms() const { return start_ms_; }
    /// @brief Host time stop() took, after the batch (given alike to a batch that is not sampled).
    double trail_ms() const { return stop_ms_; }

private:
    bool running_ = false;
    int image_ = 0;        // the counter data image this window samples into
    double start_ms_ = 0;  // host time the start took
    double stop_ms_ = 0;   // host time the stop took
};

}  // namespace grading::timed_counters
