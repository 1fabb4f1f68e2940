// The GPU's performance monitors sampled around the student's timed batches (timed_counters.hpp).
#include "timed_counters.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>

// PM sampling and the profiler host API came with CUPTI 12.6; the course builds from CUDA 12.0, where the
// monitors are then reported as not readable.
#if __has_include(<cupti_pmsampling.h>) && __has_include(<cupti_profiler_host.h>)
#define COURSE_HAS_PM_SAMPLING 1
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#else
#define COURSE_HAS_PM_SAMPLING 0
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <thread>
#include <vector>

namespace grading::timed_counters {
#if COURSE_HAS_PM_SAMPLING
namespace {

// One configuration, collected in one pass of the monitors (PM sampling takes no replays). The order is
// Totals' fields'.
const char* const kMetrics[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "sm__cycles_active.sum",
    "sm__inst_executed_pipe_lsu.sum",
    "sm__ctas_launched.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};
constexpr std::size_t kMetricCount = sizeof(kMetrics) / sizeof(kMetrics[0]);
// Metrics that rules use where the monitors take them beside kMetrics in one pass (each is tried in turn;
// a rule whose metric was not taken judges nothing on it, Totals' field staying 0). The order is
// Totals::optional's.
const char* const kOptionalMetrics[] = {
    "sm__warps_launched_shader_cs.sum",
    "lts__t_sectors_srcunit_tex.sum",
};
constexpr std::size_t kOptionalCount = sizeof(kOptionalMetrics) / sizeof(kOptionalMetrics[0]);
static_assert(kOptionalCount == sizeof(Totals::optional) / sizeof(Totals::optional[0]), "one field a metric");
// A sample every 0.1 ms, or COURSE_TIMED_COUNTERS_INTERVAL_US microseconds (50 to 2000; for measuring what the
// interval costs: a window's decode, which the next window waits for, takes about 0.1 ms a sample on an H200,
// and a batch of 10 ms is some 100 samples at 0.1 ms). The rules judge a window's totals, which do not depend
// on how finely they were sampled.
std::uint64_t interval_ns() {
    static const std::uint64_t ns = [] {
        const char* v = std::getenv("COURSE_TIMED_COUNTERS_INTERVAL_US");
        const long us = v ? std::strtol(v, nullptr, 10) : 100;
        return static_cast<std::uint64_t>(std::clamp(us, 50L, 2000L)) * 1000;
    }();
    return ns;
}
// The monitors' buffer, which holds one window's samples until they are decoded: 512 MiB, or
// COURSE_TIMED_COUNTERS_BUFFER_MB (16 to 2048; for finding what a long window needs). Measured on an H200
// (.ci/gpu-counters-probe.sh with BUFFERS): windows of 8 calls of one global atomic an element (5,600 to
// 15,900 samples at 0.1 ms) overflowed 128 MiB, after which no window could start again
// (cuptiPmSamplingStart: CUPTI_ERROR_UNKNOWN), and a grading that timed only an honest slow kernel read as
// counters taken by something else; 512 MiB held them all, up to 15,928 samples (1.6 s): a sample takes at
// most some 33 KiB.
// A kernel that passes a speed check takes far less a window: its calls are within a few times the peer's.
std::size_t buffer_bytes() {
    const char* v = std::getenv("COURSE_TIMED_COUNTERS_BUFFER_MB");
    const long mb = v ? std::strtol(v, nullptr, 10) : 512;
    return static_cast<std::size_t>(std::clamp(mb, 16L, 2048L)) << 20;
}
// What a window waits before its batch starts: two sample intervals, and at least 0.5 ms (see Window()).
std::uint64_t lead_ns() { return std::max<std::uint64_t>(2 * interval_ns(), 500'000); }
// 0.1 s of samples a window (a longer one is judged on its start): a timed batch takes 10 to 25 ms for the
// references. A window whose image is not ready yet (initialised on the side: some 50 to 150 ms on an H100
// for 4096 samples) waits for it in its lead, which every other batch of the student's then copies: with
// 4096 samples and 4 images Lab 06's 32 strides waited longer than they were timed (H100: 6.6 s before and
// 3.7 s after the batches against 3.9 s timed, a curve); with 1024 and 8, 3.6 s and 0.7 s against 3.9 s.
constexpr std::uint32_t kMaxSamples = 1024;
// At most this many decodes a window (kMaxSamples samples each, some 100 s of samples): a batch that long
// reaches the lab's time limit first.
constexpr int kMaxChunks = 1024;
constexpr int kImages = 8;                       // counter data images in the ring (State::images)

struct State {
    bool opened = false;
    bool ok = false;
    std::string reason;
    std::string chip;
    CUpti_Profiler_Host_Object* host = nullptr;
    CUpti_PmSampling_Object* sampler = nullptr;
    std::vector<std::uint8_t> availability, config;
    // kMetrics, then any metric named in COURSE_TIMED_COUNTERS_PROBE (comma-separated) that the monitors
    // accept: those are only printed with each window's steps (COURSE_TIMED_COUNTERS_STEPS), for trying a
    // metric on a GPU before a rule uses it (.ci/gpu-counters-probe.sh).
    std::vector<std::string> names;
    std::vector<const char*> name_ptrs;  // names' texts, as CUPTI takes them
    int optional_at[kOptionalCount] = {};  // where in names each of kOptionalMetrics is (-1: not taken)
    std::size_t probes_from = 0;           // where in names the probe metrics start
    // Counter data images, used in turn. After a window stops, what it sampled is decoded into its image,
    // evaluated, and the image made ready again (initialised: some 50 to 150 ms on an H100 for kMaxSamples),
    // all on a thread of its own: neither the end of a window nor the start of the next waits for the
    // evaluation or the initialisation while the ring has a ready image, and the next start waits only for
    // the decode (the monitors' buffer holds one window at a time).
    std::vector<std::uint8_t> images[kImages];
    std::future<bool> busy[kImages];  // image i's decode, evaluation and initialisation, while they run
    bool ready[kImages] = {};         // initialised and not used by a window since
    int next = 0;                     // the image of the next window
    std::shared_future<void> decoded; // the last window's decode
    std::mutex evaluating;            // one evaluation at a time on the host object
    std::string taken_back;           // why the sampler could not be taken back ("" when it could)
    bool may_take = false;            // given back, and may be taken again (take_back())
    // What the decodes of the windows so far found, said with a window that then cannot start: the
    // monitors' buffer overflowed (a window longer than it holds), and the most samples one window held.
    std::atomic<bool> overflowed{false};
    std::atomic<std::size_t> most_samples{0};
} g;

// What the decodes so far found, for the message of a window that cannot start.
std::string decodes_so_far() {
    return "; the longest window decoded so far held " + std::to_string(g.most_samples.load()) + " samples" +
           (g.overflowed ? ", and the monitors' buffer overflowed in one" : "") +
           "; a window of calls taking seconds also overflows it";
}

std::string result_text(CUptiResult r) {
    const char* s = nullptr;
    cuptiGetResultString(r, &s);
    return s ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
}

// Runs @p call; on failure records "what: CUPTI's words" and returns false.
template <class F>
bool step(const char* what, F&& call, std::string& reason) {
    const CUptiResult r = call();
    if (r == CUPTI_SUCCESS) return true;
    reason = std::string(what) + ": " + result_text(r);
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
        reason += " (the GPU's performance counters are restricted to administrators on this machine; see "
                  "NVreg_RestrictProfilingToAdminUsers)";
    return false;
}

bool initialise(int i, std::string& why);
bool take();
void release();

// A host object for PM sampling on this chip, in @p object; false with CUPTI's words in @p why.
bool host_object(CUpti_Profiler_Host_Object*& object, std::string& why) {
    CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    host.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    host.pChipName = g.chip.c_str();
    host.pCounterAvailabilityImage = g.availability.data();
    if (!step("cuptiProfilerHostInitialize", [&] { return cuptiProfilerHostInitialize(&host); }, why)) return false;
    object = host.pHostObject;
    return true;
}

// The configuration image that collects @p names, added to host object @p host, in @p config; false, with
// the reason in @p why, where CUPTI refuses them or they need more than the one pass PM sampling takes.
bool config_image(CUpti_Profiler_Host_Object* host, std::vector<const char*>& names,
                  std::vector<std::uint8_t>& config, std::string& why) {
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = host;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    if (!step("cuptiProfilerHostConfigAddMetrics", [&] { return cuptiProfilerHostConfigAddMetrics(&add); }, why))
        return false;
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = host;
    if (!step("cuptiProfilerHostGetConfigImageSize", [&] { return cuptiProfilerHostGetConfigImageSize(&size); }, why))
        return false;
    config.assign(size.configImageSize, 0);
    CUpti_Profiler_Host_GetConfigImage_Params image{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    image.pHostObject = host;
    image.configImageSize = config.size();
    image.pConfigImage = config.data();
    if (!step("cuptiProfilerHostGetConfigImage", [&] { return cuptiProfilerHostGetConfigImage(&image); }, why))
        return false;
    CUpti_Profiler_Host_GetNumOfPasses_Params passes{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    passes.configImageSize = config.size();
    passes.pConfigImage = config.data();
    if (!step("cuptiProfilerHostGetNumOfPasses", [&] { return cuptiProfilerHostGetNumOfPasses(&passes); }, why))
        return false;
    if (passes.numOfPasses != 1) {
        why = "the counters need " + std::to_string(passes.numOfPasses) + " passes on " + g.chip +
              " (PM sampling takes one)";
        return false;
    }
    return true;
}

// Appends each of @p metrics to g.names where a configuration of its own accepts it in one pass with
// those before it; returns where each went (-1: refused, which stderr says, calling it @p kind).
std::vector<int> add_metrics(const std::vector<std::string>& metrics, const char* kind) {
    std::vector<int> at;
    for (const std::string& metric : metrics) {
        at.push_back(-1);
        if (metric.empty()) continue;
        std::vector<const char*> trial;
        for (const auto& n : g.names) trial.push_back(n.c_str());
        trial.push_back(metric.c_str());
        std::string why;
        CUpti_Profiler_Host_Object* host = nullptr;
        std::vector<std::uint8_t> config;
        const bool ok = host_object(host, why) && config_image(host, trial, config, why);
        if (host) {
            CUpti_Profiler_Host_Deinitialize_Params done{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
            done.pHostObject = host;
            cuptiProfilerHostDeinitialize(&done);
        }
        if (ok) {
            at.back() = static_cast<int>(g.names.size());
            g.names.push_back(metric);
        } else {
            std::fprintf(stderr, "timed counters: %s metric %s refused (%s)\n", kind, metric.c_str(), why.c_str());
        }
    }
    return at;
}

// The comma-separated metrics of @p list.
std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        out.push_back(list.substr(from, comma - from));
        from = comma + 1;
    }
    return out;
}

bool configure() {
    int ordinal = 0;
    if (cudaGetDevice(&ordinal) != cudaSuccess) {
        g.reason = "no current CUDA device";
        return false;
    }
    const auto index = static_cast<std::size_t>(ordinal);
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (!step("cuptiProfilerInitialize", [&] { return cuptiProfilerInitialize(&init); }, g.reason)) return false;
    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = index;
    if (!step("cuptiDeviceGetChipName", [&] { return cuptiDeviceGetChipName(&chip); }, g.reason)) return false;
    g.chip = chip.pChipName;
    CUpti_PmSampling_GetCounterAvailability_Params avail{CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE};
    avail.deviceIndex = index;
    if (!step("cuptiPmSamplingGetCounterAvailability", [&] { return cuptiPmSamplingGetCounterAvailability(&avail); },
              g.reason))
        return false;
    g.availability.assign(avail.counterAvailabilityImageSize, 0);
    avail.pCounterAvailabilityImage = g.availability.data();
    if (!step("cuptiPmSamplingGetCounterAvailability", [&] { return cuptiPmSamplingGetCounterAvailability(&avail); },
              g.reason))
        return false;
    if (!host_object(g.host, g.reason)) return false;
    g.names.assign(std::begin(kMetrics), std::end(kMetrics));
    const std::vector<int> optional =
        add_metrics(std::vector<std::string>(std::begin(kOptionalMetrics), std::end(kOptionalMetrics)), "optional");
    std::copy(optional.begin(), optional.end(), g.optional_at);
    g.probes_from = g.names.size();
    if (const char* probe = std::getenv("COURSE_TIMED_COUNTERS_PROBE")) add_metrics(split_list(probe), "probe");
    for (const auto& n : g.names) g.name_ptrs.push_back(n.c_str());
    if (!config_image(g.host, g.name_ptrs, g.config, g.reason)) return false;
    return take();
}

// Takes the device's sampler and configures it, and makes the images ready on the side; false, with
// CUPTI's words in g.reason, when it cannot.
bool take() {
    int ordinal = 0;
    if (cudaGetDevice(&ordinal) != cudaSuccess) {
        g.reason = "no current CUDA device";
        return false;
    }
    CUpti_PmSampling_Enable_Params enable{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
    enable.deviceIndex = static_cast<std::size_t>(ordinal);
    bool enabled = false;
    for (int attempt = 0; attempt < 20 && !enabled; ++attempt) {
        enabled = step("cuptiPmSamplingEnable", [&] { return cuptiPmSamplingEnable(&enable); }, g.reason);
        if (!enabled && g.reason.find("administrators") != std::string::npos) return false;
        if (!enabled) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!enabled) return false;
    g.sampler = enable.pPmSamplingObject;
    CUpti_PmSampling_SetConfig_Params set{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
    set.pPmSamplingObject = g.sampler;
    set.configSize = g.config.size();
    set.pConfig = g.config.data();
    set.hardwareBufferSize = buffer_bytes();
    set.samplingInterval = interval_ns();
    set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    if (!step("cuptiPmSamplingSetConfig", [&] { return cuptiPmSamplingSetConfig(&set); }, g.reason)) return false;
    CUpti_PmSampling_GetCounterDataSize_Params data{CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    data.pPmSamplingObject = g.sampler;
    data.pMetricNames = g.name_ptrs.data();
    data.numMetrics = g.name_ptrs.size();
    data.maxSamples = kMaxSamples;
    if (!step("cuptiPmSamplingGetCounterDataSize", [&] { return cuptiPmSamplingGetCounterDataSize(&data); }, g.reason))
        return false;
    for (auto& image : g.images) image.assign(data.counterDataSize, 0);
    // Made ready from the start, on the side (a window that finds its image not ready yet waits for it, in
    // its lead): a first window that initialised its own would wait for it the most.
    for (int i = 0; i < kImages; ++i) {
        g.ready[i] = false;
        g.busy[i] = std::async(std::launch::async, [i] {
            std::string why;
            return initialise(i, why);
        });
    }
    // Given back when the program ends, however it returns from main, so that the next program's profiler
    // finds the monitors free.
    static const bool registered = [] {
        std::atexit(release);
        return true;
    }();
    (void)registered;
    return true;
}

// Gives the device's sampler back, once the work on the side is done with it.
void release() {
    if (!g.sampler) return;
    for (auto& b : g.busy)
        if (b.valid()) b.wait();
    if (g.decoded.valid()) g.decoded.wait();
    CUpti_PmSampling_Disable_Params disable{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
    disable.pPmSamplingObject = g.sampler;
    cuptiPmSamplingDisable(&disable);
    g.sampler = nullptr;
}

}  // namespace
#endif

std::string Totals::describe() const {
    char line[640];
    std::snprintf(line, sizeof line,
                  "%.0f calls in %.0f sampled batches: shared-memory wavefronts %.4g loads, %.4g stores; %.3g blocks, %.3g warps; L2 sectors "
                  "from L1 %.3g; "
                  "loads' share of the SMs' busy cycles %.2f; %.2f load wavefronts a memory instruction; DRAM %.3g B "
                  "read, %.3g B written; sampling took %.1f ms before a batch and %.1f ms after it, outside the timed "
                  "interval (every other batch of yours waits as long before and after it)",
                  calls, windows, shared_load_wavefronts, shared_store_wavefronts, blocks, warps(), l2_sectors_from_l1(), shared_load_share(),
                  wavefronts_per_memory_instruction(), dram_read_bytes, dram_write_bytes,
                  windows > 0 ? lead_ms / windows : 0.0, windows > 0 ? trail_ms / windows : 0.0);
    return line;
}


#if !COURSE_HAS_PM_SAMPLING
namespace {
struct State {
    bool opened = false;
    bool ok = false;
    std::string reason;
} g;
}  // namespace

bool open() {
    g.opened = true;
    g.reason = "this CUDA Toolkit's CUPTI has no PM sampling (CUDA 12.6 or newer has)";
    return false;
}

void turn_off(const std::string& reason) {
    g.opened = true;
    g.reason = reason;
}

bool available() { return false; }

void give_back() {}

void take_back() {}

bool held() { return false; }

const std::string& unavailable_reason() { return g.reason; }

Window::Window() = default;
Window::~Window() = default;
std::future<Totals> Window::stop() {
    std::promise<Totals> none;
    none.set_value(Totals{});
    return none.get_future();
}
#else
bool open() {
    if (g.opened) return g.ok;
    g.opened = true;
    g.ok = configure();
    return g.ok;
}

void turn_off(const std::string& reason) {
    g.opened = true;
    g.ok = false;
    g.reason = reason;
}

void give_back() {
    g.may_take = false;
    if (g.ok) release();
}

void take_back() {
    // Taken by the first window that needs it (most sections that have the GPU alone sample nothing).
    g.may_take = true;
}

bool available() { return g.ok; }

bool held() { return g.sampler != nullptr; }

const std::string& unavailable_reason() { return g.reason; }

namespace {
double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

namespace {
// Initialises image @p i for a window; false, with CUPTI's words in @p why, when it cannot.
bool initialise(int i, std::string& why) {
    CUpti_PmSampling_CounterDataImage_Initialize_Params init{CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pPmSamplingObject = g.sampler;
    init.counterDataSize = g.images[i].size();
    init.pCounterData = g.images[i].data();
    return step("cuptiPmSamplingCounterDataImageInitialize", [&] { return cuptiPmSamplingCounterDataImageInitialize(&init); },
                why);
}

// Image @p i, ready for a window: the work on the side of the window that used it last waited for, and
// (the run's first windows, or an initialisation that failed there) its initialisation done here.
void take_ready(int i) {
    if (g.busy[i].valid()) g.ready[i] = g.busy[i].get();
    std::string why;
    if (!g.ready[i] && !initialise(i, why))
        throw CountersTaken("the GPU's performance counters could not be sampled (" + why + ")");
    g.ready[i] = false;
}

// Decodes the stopped window's samples into image @p i: the sums of its samples but the first (see
// Window()), with @p lead_ms and @p trail_ms, the host time its start and its stop took.
// The host's CLOCK_REALTIME (ns) when each image's window started, for COURSE_TIMED_COUNTERS_SAMPLES.
long long start_realtime[kImages] = {}, batch_realtime[kImages] = {}, stop_realtime[kImages] = {};
// Whether each window prints where its time goes (COURSE_TIMED_COUNTERS_STEPS), for tuning.
bool print_steps() {
    static const bool steps = std::getenv("COURSE_TIMED_COUNTERS_STEPS") != nullptr;
    return steps;
}

long long realtime_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return static_cast<long long>(now.tv_sec) * 1000000000ll + now.tv_nsec;
}

Totals decode(int i, double lead_ms, double trail_ms, const std::shared_ptr<std::promise<void>>& decoded) {
    const long long realtime_at_start = start_realtime[i];
    const bool steps = print_steps();
    // COURSE_TIMED_COUNTERS_SAMPLES=1 prints every sample of every window (its GPU time span from the first
    // sample's start, and what it counted), for finding where a window's counts come from.
    static const bool dump = std::getenv("COURSE_TIMED_COUNTERS_SAMPLES") != nullptr;
    const double t0 = now_ms();
    // On any exception the monitors' buffer is given to the next window by the caller (Window::stop()).
    std::string why;
    std::vector<std::uint8_t>& data = g.images[i];
    Totals t;
    std::vector<double> values(g.name_ptrs.size()), probed(g.name_ptrs.size() - g.probes_from);
    double decode_ms = 0.0;
    std::size_t samples = 0;
    std::uint64_t first_start = 0;
    // A window's samples come out of the monitors' buffer kMaxSamples at most a decode. A window longer than
    // that many intervals (a first call that loads its module, a process descheduled on a busy machine)
    // leaves the rest in the buffer: decoded here too, into the same image once the part before was
    // evaluated, and only then is the buffer free for the next window, which would otherwise take them as
    // its own first samples (measured on four H100s of one host: the long sample that holds what ran
    // before a window then came thirtieth, and a baseline's batch was counted as the student's).
    for (int chunk = 0;; ++chunk) {
        CUpti_PmSampling_DecodeData_Params decode{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
        decode.pPmSamplingObject = g.sampler;
        decode.pCounterDataImage = data.data();
        decode.counterDataImageSize = data.size();
        const double td = now_ms();
        const bool ok = step("cuptiPmSamplingDecodeData", [&] { return cuptiPmSamplingDecodeData(&decode); }, why);
        decode_ms += now_ms() - td;
        CUpti_PmSampling_GetCounterDataInfo_Params info{CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE};
        info.pCounterDataImage = data.data();
        info.counterDataImageSize = data.size();
        if (!ok || !step("cuptiPmSamplingGetCounterDataInfo", [&] { return cuptiPmSamplingGetCounterDataInfo(&info); }, why))
            throw CountersTaken("the GPU's performance counters could not be decoded (" + why + ")");
        if (decode.overflow) g.overflowed = true;
        if (steps)
            std::fprintf(stderr, "timed counters: decode %d: %zu samples, stop reason %d, overflow %d\n", chunk,
                         static_cast<std::size_t>(info.numCompletedSamples), static_cast<int>(decode.decodeStopReason),
                         static_cast<int>(decode.overflow));
        const bool full = info.numCompletedSamples >= kMaxSamples && chunk + 1 < kMaxChunks;
        if (!full) decoded->set_value();  // the monitors' buffer is free for the next window
        const std::lock_guard<std::mutex> one_at_a_time(g.evaluating);
        // Not the window's first sample (see Window()).
        for (std::size_t s = chunk == 0 && !dump ? 1 : 0; s < info.numCompletedSamples; ++s) {
            if (dump) {
                CUpti_PmSampling_CounterData_GetSampleInfo_Params at{CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
                at.pPmSamplingObject = g.sampler;
                at.pCounterDataImage = data.data();
                at.counterDataImageSize = data.size();
                at.sampleIndex = s;
                cuptiPmSamplingCounterDataGetSampleInfo(&at);
                if (chunk == 0 && s == 0) {
                    first_start = at.startTimestamp;
                    std::fprintf(stderr,
                                 "timed counters window: first sample at %llu; host realtime at start %lld, batch "
                                 "+%.1f us, stop +%.1f us\n",
                                 static_cast<unsigned long long>(at.startTimestamp), realtime_at_start,
                                 static_cast<double>(batch_realtime[i] - realtime_at_start) / 1e3,
                                 static_cast<double>(stop_realtime[i] - realtime_at_start) / 1e3);
                }
                std::fprintf(stderr, "timed counters sample %d/%zu: %+.1f..%+.1f us", chunk, s,
                             (static_cast<double>(at.startTimestamp) - static_cast<double>(first_start)) / 1e3,
                             (static_cast<double>(at.endTimestamp) - static_cast<double>(first_start)) / 1e3);
            }
            CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
            eval.pHostObject = g.host;
            eval.pCounterDataImage = data.data();
            eval.counterDataImageSize = data.size();
            eval.rangeIndex = s;
            eval.ppMetricNames = g.name_ptrs.data();
            eval.numMetrics = g.name_ptrs.size();
            eval.pMetricValues = values.data();
            if (!step("cuptiProfilerHostEvaluateToGpuValues", [&] { return cuptiProfilerHostEvaluateToGpuValues(&eval); },
                      why))
                throw CountersTaken("the GPU's performance counters could not be evaluated (" + why + ")");
            if (dump) std::fprintf(stderr, " blocks %.6g shared loads %.6g stores %.6g\n", values[4], values[0], values[1]);
            if (chunk == 0 && s == 0) continue;
            t.shared_load_wavefronts += values[0];
            t.shared_store_wavefronts += values[1];
            t.sm_active_cycles += values[2];
            t.lsu_instructions += values[3];
            t.blocks += values[4];
            t.dram_read_bytes += values[5];
            t.dram_write_bytes += values[6];
            for (std::size_t k = 0; k < kOptionalCount; ++k)
                if (g.optional_at[k] >= 0) t.optional[k] += values[static_cast<std::size_t>(g.optional_at[k])];
            t.samples += 1;
            for (std::size_t m = g.probes_from; m < values.size(); ++m) probed[m - g.probes_from] += values[m];
        }
        samples += info.numCompletedSamples;
        if (!full) {
            if (samples > g.most_samples) g.most_samples = samples;
            break;
        }
        if (!initialise(i, why)) throw CountersTaken("the GPU's performance counters could not be decoded (" + why + ")");
    }
    const double t_decode = t0 + decode_ms;
    if (steps) {  // where a window's time goes, for tuning (.ci/gpu-counters-probe.sh sets it)
        std::fprintf(stderr,
                     "timed counters: start %.2f ms, stop %.2f ms; on the side: decode %.2f, evaluate %.2f ms (%u samples)\n",
                     lead_ms, trail_ms, decode_ms, now_ms() - t_decode, static_cast<unsigned>(samples));
        for (std::size_t m = g.probes_from; m < g.names.size(); ++m)
            std::fprintf(stderr, "timed counters: probe %s %.6g (sm__ctas_launched %.6g)\n", g.names[m].c_str(),
                         probed[m - g.probes_from], t.blocks);
    }
    t.windows = 1;
    t.lead_ms = lead_ms;
    t.trail_ms = trail_ms;
    return t;
}
}  // namespace

Window::Window() {
    if (!g.ok) return;
    if (!g.sampler && g.may_take) {
        // Taken back for this measurement, and its images made ready, before the window's own time starts:
        // what the first window waits here is no part of the wait every other batch copies (lead_ms()).
        if (take()) {
            for (int i = 0; i < kImages; ++i)
                if (g.busy[i].valid()) g.ready[i] = g.busy[i].get();
        } else {
            g.taken_back = g.reason;
            release();  // whatever part of it was taken
        }
        g.may_take = false;
    }
    if (!g.sampler)
        throw CountersTaken("the GPU's performance counters could not be taken back for this measurement (" + g.taken_back + ")");
    // From here to the batch's start is what a batch that is not sampled waits too (lead_ms()), waits for
    // the last window's decode or for a ready image included.
    const double t0 = now_ms();
    if (g.decoded.valid()) g.decoded.wait();
    const double t_decoded = now_ms();
    image_ = g.next;
    g.next = (g.next + 1) % kImages;
    take_ready(image_);
    const double t_ready = now_ms();
    std::string why;
    CUpti_PmSampling_Start_Params start{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
    start.pPmSamplingObject = g.sampler;
    if (!step("cuptiPmSamplingStart", [&] { return cuptiPmSamplingStart(&start); }, why))
        throw CountersTaken("the GPU's performance counters could not be sampled (" + why + decodes_so_far() + ")");
    if (print_steps())  // where a window's lead goes, for tuning (.ci/gpu-counters-probe.sh sets it)
        std::fprintf(stderr, "timed counters: lead: last decode %.2f ms, image %.2f ms, cuptiPmSamplingStart %.2f ms\n",
                     t_decoded - t0, t_ready - t_decoded, now_ms() - t_ready);
    running_ = true;
    start_realtime[image_] = realtime_ns();
    // A window's first sample holds what the counters counted before it started too (the check program's
    // own work on the inputs, right before the batch: measured on an H100, all of it lands there). So the
    // batch starts only after that sample has ended, and the decode leaves the first sample out.
    std::this_thread::sleep_for(std::chrono::nanoseconds(lead_ns()));
    start_ms_ = now_ms() - t0;
    batch_realtime[image_] = realtime_ns();
}

Window::~Window() {
    if (!running_) return;
    CUpti_PmSampling_Stop_Params stop_params{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
    stop_params.pPmSamplingObject = g.sampler;
    cuptiPmSamplingStop(&stop_params);
}

std::future<Totals> Window::stop() {
    if (!running_) {
        std::promise<Totals> none;
        none.set_value(Totals{});
        return none.get_future();
    }
    running_ = false;
    stop_realtime[image_] = realtime_ns();
    const double t0 = now_ms();
    std::string why;
    CUpti_PmSampling_Stop_Params stop_params{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
    stop_params.pPmSamplingObject = g.sampler;
    if (!step("cuptiPmSamplingStop", [&] { return cuptiPmSamplingStop(&stop_params); }, why))
        throw CountersTaken("the GPU's performance counters could not be sampled (" + why + ")");
    stop_ms_ = now_ms() - t0;
    // Decoded, evaluated and the image made ready again on the side (see State::images).
    auto decoded = std::make_shared<std::promise<void>>();
    g.decoded = decoded->get_future().share();
    auto totals = std::make_shared<std::promise<Totals>>();
    std::future<Totals> reading = totals->get_future();
    const int i = image_;
    const double lead = start_ms_, trail = stop_ms_;
    g.busy[i] = std::async(std::launch::async, [i, lead, trail, decoded, totals] {
        try {
            totals->set_value(decode(i, lead, trail, decoded));
        } catch (...) {
            try {
                decoded->set_value();
            } catch (const std::future_error&) {  // set already
            }
            totals->set_exception(std::current_exception());
        }
        std::string why;
        return initialise(i, why);
    });
    return reading;
}

#endif  // COURSE_HAS_PM_SAMPLING

}  // namespace grading::timed_counters
