// The check program's side of the launch hosts (see isolation.hpp).
#include "isolation.hpp"

#include "confinement.hpp"
#include "whereabouts.hpp"
#include "driver_api.hpp"
#include "launch_wire.hpp"
#include "verify.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_memory.hpp"
#include "random.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <optional>
#include <set>
#include <random>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace grading::isolation {

namespace {

// One allocation of the check program's, made so that it can be shared alone: its own physical
// allocation and its own address range, never a part of a larger block that holds anything else.
struct Export {
    std::uint64_t id = 0;
    CUdeviceptr base = 0;
    std::size_t mapped = 0;  // bytes mapped (a multiple of the granularity)
    std::size_t bytes = 0;   // bytes asked for
    CUmemGenericAllocationHandle handle = 0;
};

struct Process {
    pid_t pid = -1;
    int sock = -1;
    std::set<std::uint64_t> mapped;  // exports the host has mapped
    bool stopped = false;            // stopped (SIGSTOP) until its next request, see time_across
    std::optional<int> ended;        // its wait status, when it ended while being stopped (already reaped)
};

struct State {
    bool enabled = false;
    bool exact = false;
    HostTool tool = HostTool::None;  // the tool the program runs under
    std::string paths[2];  // Host::Student, Host::Peers
    Process hosts[2];
    std::map<CUdeviceptr, Export> exports;
    std::uint64_t next_id = 1;
    Callback callback;                                 // what the student's host may call back, while a scope lives
    std::optional<Host> batching;                      // the host whose calls a Batch collects
    nlohmann::json pending = nlohmann::json::array();  // those calls
} g;

const char* host_name(Host h) { return h == Host::Student ? "your code's process" : "the peers' process"; }

void check_driver(CUresult r, const char* what) {
    if (r == CUDA_SUCCESS) return;
    const char* name = nullptr;
    driver().GetErrorName(r, &name);
    const cudaError_t as_runtime = r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : cudaErrorUnknown;
    throw course::CudaError(as_runtime, std::string(what) + " failed: " + (name ? name : "CUresult " + std::to_string(r)));
}

CUmemAllocationProp allocation_properties() {
    int ordinal = 0;
    CUDA_CHECK(cudaGetDevice(&ordinal));
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

std::string describe_status(int status) {
    if (WIFEXITED(status)) return "it exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return "it was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
    return "it ended";
}

// The host's process is gone (or its channel broke): reap it, forget it, and say how it ended.
std::string reap(Process& p) {
    std::string how = "it ended";
    if (p.ended) {
        how = describe_status(*p.ended);
    } else if (p.pid > 0) {
        ::killpg(p.pid, SIGKILL);  // its process group: anything it started goes too
        ::kill(p.pid, SIGKILL);
        int status = 0;
        if (::waitpid(p.pid, &status, 0) == p.pid) how = describe_status(status);
    }
    if (p.sock >= 0) ::close(p.sock);
    p = Process{};
    return how;
}

void start(Host h) {
    Process& p = g.hosts[static_cast<int>(h)];
    const std::string& path = g.paths[static_cast<int>(h)];
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw std::runtime_error("cannot create the launch channel");
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("cannot start " + std::string(host_name(h)));
    if (pid == 0) {
        // The child: only the channel (as descriptor 3) and the standard streams go across; the report
        // channel and everything else the check program holds stay behind.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        ::setpgid(0, 0);  // a process group of its own, stopped and continued as one (time_across)
        const auto warn_unless = [](bool in_place, const char* warning) {  // write(2) only: after fork
            if (!in_place) [[maybe_unused]] const ssize_t w = ::write(2, warning, std::strlen(warning));
        };
        warn_unless(drop_capabilities(g.tool == HostTool::Profiler),
                    "warning: the launch host keeps capabilities it could not drop\n");
        warn_unless(restrict_host_writes(g.tool != HostTool::None),
                    "warning: the launch host may write anywhere (no Landlock on this system)\n");
        warn_unless(confine_launch_host(path.c_str()),
                    "warning: the launch host runs unconfined (no seccomp filter on this system)\n");
        ::dup2(sv[1], 3);
        const int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, 0);
        for (int fd = 4; fd < 4096; ++fd) ::close(fd);
        const char* argv[] = {path.c_str(), "--channel", "3", nullptr};
        ::execv(path.c_str(), const_cast<char* const*>(argv));
        ::_exit(127);
    }
    ::close(sv[1]);
    ::setpgid(pid, pid);  // also here: whichever of the two runs first, the group exists before it is signalled
    p.pid = pid;
    p.sock = sv[0];
    p.mapped.clear();
    p.stopped = false;
    p.ended.reset();
}

// Stops the host's process group and waits until the host has stopped: none of its threads runs, so it
// launches nothing on the GPU, until resume(). A host that ended instead is reaped (its status kept).
void stop(Process& p) {
    if (p.pid <= 0 || p.stopped || p.ended) return;
    if (::killpg(p.pid, SIGSTOP) != 0) ::kill(p.pid, SIGSTOP);
    int status = 0;
    pid_t r;
    while ((r = ::waitpid(p.pid, &status, WUNTRACED)) < 0 && errno == EINTR) {}
    if (r == p.pid && WIFSTOPPED(status)) p.stopped = true;
    else if (r == p.pid) p.ended = status;
}

void resume(Process& p) {
    if (p.pid <= 0 || !p.stopped) return;
    if (::killpg(p.pid, SIGCONT) != 0) ::kill(p.pid, SIGCONT);
    p.stopped = false;
}

}  // namespace

void stop_hosts() {
    for (Process& p : g.hosts) stop(p);
}

void end_hosts() {
    for (Process& p : g.hosts)
        if (p.pid >= 0) reap(p);
}

namespace {

nlohmann::json run_callback(Host h, const nlohmann::json& asked) {
    if (h != Host::Student || !g.callback)
        return {{"ok", false}, {"kind", "refused"}, {"message", "no callback may be called here"}};
    try {
        const std::string name = asked.at("callback").get<std::string>();
        std::vector<std::int64_t> integers;
        if (asked.contains("integers")) integers = asked.at("integers").get<std::vector<std::int64_t>>();
        if (integers.size() > 16) throw std::invalid_argument("too many arguments");
        g.callback(name, integers);
        CUDA_CHECK(cudaDeviceSynchronize());
        return {{"ok", true}};
    } catch (const std::invalid_argument& e) {
        return {{"ok", false}, {"kind", "invalid"}, {"message", e.what()}};
    } catch (const course::CudaError&) {
        throw;  // the check program's own context failed: a grader error, not the student's
    } catch (const std::exception& e) {
        return {{"ok", false}, {"kind", "refused"}, {"message", e.what()}};
    }
}

nlohmann::json request(Host h, const nlohmann::json& message, int pass_fd = -1) {
    const whereabouts::Doing doing(h == Host::Student
                                       ? "waiting for the student's process to answer a request (a call of the lab's code)"
                                       : "waiting for the peers' process to answer a request (a baseline or library call)");
    Process& p = g.hosts[static_cast<int>(h)];
    if (p.pid < 0) start(h);
    resume(p);
    try {
        wire::send(p.sock, message, pass_fd);
        for (;;) {
            wire::Received r = wire::receive(p.sock);
            if (r.fd >= 0) ::close(r.fd);
            if (!r.message.is_object() || !r.message.contains("callback")) return r.message;
            // The student's code asks for a callback of the check program's during its call: run it here,
            // wait for this device, answer, and go on waiting for the call's own answer.
            wire::send(p.sock, run_callback(h, r.message));
        }
    } catch (const wire::ChannelClosed&) {
        const std::string how = reap(p);
        throw std::runtime_error(std::string(host_name(h)) + " ended during '" + message.value("name", message.value("op", "")) +
                                 "': " + how);
    }
}

Export* find_export(const void* ptr) {
    const auto p = reinterpret_cast<CUdeviceptr>(ptr);
    auto it = g.exports.upper_bound(p);
    if (it == g.exports.begin()) return nullptr;
    --it;
    return p < it->second.base + it->second.mapped ? &it->second : nullptr;
}

void ensure_mapped(Host h, const Export& e) {
    Process& p = g.hosts[static_cast<int>(h)];
    if (p.pid < 0) start(h);
    if (p.mapped.count(e.id)) return;
    int fd = -1;
    check_driver(driver().MemExportToShareableHandle(&fd, e.handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                 "cuMemExportToShareableHandle");
    nlohmann::json reply;
    try {
        reply = request(h, {{"op", "map"}, {"id", e.id}, {"size", e.mapped}}, fd);
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    if (!reply.value("ok", false))
        throw std::runtime_error(std::string(host_name(h)) + " could not map a shared buffer: " + reply.value("message", ""));
    g.hosts[static_cast<int>(h)].mapped.insert(e.id);
}

void* shared_allocate(std::size_t bytes) {
    CUDA_CHECK(cudaFree(nullptr));  // the runtime's context is current before the driver is used
    const CUmemAllocationProp prop = allocation_properties();
    std::size_t granularity = 0;
    check_driver(driver().MemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
                 "cuMemGetAllocationGranularity");
    Export e;
    e.bytes = bytes;
    e.mapped = (bytes + granularity - 1) / granularity * granularity;
    check_driver(driver().MemCreate(&e.handle, e.mapped, &prop, 0), "cuMemCreate");
    if (const CUresult r = driver().MemAddressReserve(&e.base, e.mapped, 0, 0, 0); r != CUDA_SUCCESS) {
        driver().MemRelease(e.handle);
        check_driver(r, "cuMemAddressReserve");
    }
    if (const CUresult r = driver().MemMap(e.base, e.mapped, 0, e.handle, 0); r != CUDA_SUCCESS) {
        driver().MemAddressFree(e.base, e.mapped);
        driver().MemRelease(e.handle);
        check_driver(r, "cuMemMap");
    }
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    check_driver(driver().MemSetAccess(e.base, e.mapped, &access, 1), "cuMemSetAccess");
    e.id = g.next_id++;
    g.exports[e.base] = e;
    return reinterpret_cast<void*>(e.base);
}

void shared_release(void* ptr) {
    const auto it = g.exports.find(reinterpret_cast<CUdeviceptr>(ptr));
    if (it == g.exports.end()) return;
    const Export e = it->second;
    g.exports.erase(it);
    // Every host lets go of it first: memory freed while another process still maps it is undefined.
    for (int h = 0; h < 2; ++h) {
        Process& p = g.hosts[h];
        if (p.pid < 0 || !p.mapped.count(e.id)) continue;
        p.mapped.erase(e.id);
        try {
            request(static_cast<Host>(h), {{"op", "unmap"}, {"id", e.id}});
        } catch (const std::exception&) {
            // the host is gone, and its mappings with it
        }
    }
    cudaDeviceSynchronize();
    driver().MemUnmap(e.base, e.mapped);
    driver().MemRelease(e.handle);
    driver().MemAddressFree(e.base, e.mapped);
}

nlohmann::json encode(const Arg& a) {
    switch (a.kind) {
    case Arg::Kind::Integer: return {{"i", a.integer}};
    case Arg::Kind::Null: return {{"null", true}};
    case Arg::Kind::Floats: return {{"floats", a.floats}};
    case Arg::Kind::Device: break;
    }
    const Export* e = find_export(a.pointer);
    if (!e) throw std::logic_error("grader: a device pointer handed to the student's code is not a shared buffer");
    const std::size_t offset = reinterpret_cast<CUdeviceptr>(a.pointer) - e->base;
    const std::size_t extent = offset < e->bytes ? e->bytes - offset : 0;
    return {{"p", {e->id, offset, extent}}};
}

[[noreturn]] void throw_failure(Host h, const std::string& op, const nlohmann::json& reply) {
    const std::string kind = reply.value("kind", "");
    const std::string message = reply.value("message", "");
    if (kind == "cuda")
        throw course::CudaError(static_cast<cudaError_t>(reply.value("code", static_cast<int>(cudaErrorUnknown))),
                                op + ": " + message);
    if (kind == "threw") throw std::runtime_error(message);
    throw std::logic_error(std::string(host_name(h)) + " refused '" + op + "': " + message);
}

}  // namespace

namespace {
const char*& lab_registration() {
    static const char* lab = nullptr;
    return lab;
}
}  // namespace

LabRegistration::LabRegistration(const char* lab_id) { lab_registration() = lab_id; }
const char* registered_lab() { return lab_registration(); }

bool enabled() { return g.enabled; }

void restart(Host host) {
    Process& p = g.hosts[static_cast<int>(host)];
    if (p.pid >= 0) reap(p);
}

void enable(const std::string& program_path, const std::string& lab_id, bool exact, HostTool tool) {
    const auto slash = program_path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : program_path.substr(0, slash);
    g.paths[static_cast<int>(Host::Student)] = program_path + "_host";
    g.paths[static_cast<int>(Host::Peers)] = dir + "/lab" + lab_id + "_peer_host";
    g.exact = exact;
    g.tool = tool;
    g.enabled = true;
    course::set_device_allocator({shared_allocate, shared_release});
    // The launch hosts are gone, their GPU memory with them, before this program's exit is seen: the
    // runner's next pass of the lab decides at its start which inputs fit in the GPU's free memory, and
    // nothing a host of this pass allocated may still hold some then.
    static const bool reaped_at_exit = std::atexit(end_hosts) == 0;
    (void)reaped_at_exit;
}

namespace {
// The message of one call, with every shared buffer it names mapped into the host first.
nlohmann::json call_message(Host host, const std::string& op, const std::vector<Arg>& args) {
    nlohmann::json encoded = nlohmann::json::array();
    for (const Arg& a : args) {
        if (a.kind == Arg::Kind::Device)
            if (const Export* e = find_export(a.pointer)) ensure_mapped(host, *e);
        encoded.push_back(encode(a));
    }
    return {{"op", "call"}, {"name", op}, {"args", encoded}, {"exact", g.exact}};
}
}  // namespace

// The check program's own work (filling and poisoning the buffers a call reads and writes) is done before
// the call starts: another process's kernels are not ordered after this program's by any stream.
static void finish_own_work() {
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {  // CPU-only checks: no work of its own
        cudaGetLastError();
        return;
    }
    CUDA_CHECK(e);
}

void call(Host host, const std::string& op, const std::vector<Arg>& args) {
    nlohmann::json message = call_message(host, op, args);
    if (g.batching == host) {
        g.pending.push_back(std::move(message));
        return;
    }
    finish_own_work();
    const nlohmann::json reply = request(host, message);
    if (!reply.value("ok", false)) throw_failure(host, op, reply);
}

namespace {
nlohmann::json call_for_value(Host host, const std::string& op, const std::vector<Arg>& args) {
    if (g.batching == host) throw std::logic_error("grader: a call for a value inside a batch");
    finish_own_work();
    const nlohmann::json reply = request(host, call_message(host, op, args));
    if (!reply.value("ok", false)) throw_failure(host, op, reply);
    if (!reply.contains("value")) throw std::runtime_error(op + " returned no value");
    return reply.at("value");
}
}  // namespace

std::int64_t call_int(Host host, const std::string& op, const std::vector<Arg>& args) {
    const nlohmann::json v = call_for_value(host, op, args);
    if (!v.is_number_integer()) throw std::runtime_error(op + " returned something that is not an integer");
    return v.get<std::int64_t>();
}

std::string call_string(Host host, const std::string& op, const std::vector<Arg>& args) {
    const nlohmann::json v = call_for_value(host, op, args);
    if (!v.is_string()) throw std::runtime_error(op + " returned something that is not a string");
    return v.get<std::string>();
}

CallbackScope::CallbackScope(Callback callback) {
    if (g.callback) throw std::logic_error("grader: a callback scope inside another");
    g.callback = std::move(callback);
}

CallbackScope::~CallbackScope() { g.callback = nullptr; }

Batch::Batch(Host host, bool back_to_back) : host_(host), back_to_back_(back_to_back) {
    if (g.batching) throw std::logic_error("grader: a batch inside a batch");
    g.batching = host;
    g.pending = nlohmann::json::array();
}

Batch::~Batch() {
    g.batching.reset();
    g.pending = nlohmann::json::array();
}

std::vector<double> Batch::send() {
    nlohmann::json calls = std::move(g.pending);
    g.pending = nlohmann::json::array();
    if (calls.empty()) return {};
    std::string first = calls[0].value("name", "");
    finish_own_work();
    const nlohmann::json reply =
        request(host_, {{"op", "calls"}, {"name", first}, {"calls", calls}, {"back_to_back", back_to_back_}});
    if (reply.value("ok", false)) {
        std::vector<double> gpu_ms;
        if (reply.contains("gpu_ms") && reply["gpu_ms"].is_array())
            for (const auto& v : reply["gpu_ms"]) gpu_ms.push_back(v.is_number() ? v.get<double>() : 0.0);
        return gpu_ms;
    }
    const std::size_t i = reply.value("index", std::size_t(0));
    throw_failure(host_, i < calls.size() ? calls[i].value("name", first) : first, reply);
}

std::optional<std::vector<TracedKernel>> trace(const std::function<void()>& work, std::string* why,
                                               int* graded_static_smem) {
    const nlohmann::json begun = request(Host::Student, {{"op", "trace_begin"}});
    struct End {
        nlohmann::json reply;
        bool done = false;
        void finish() {
            if (!done) reply = request(Host::Student, {{"op", "trace_end"}});
            done = true;
        }
        ~End() {
            try {
                finish();
            } catch (...) {
            }
        }
    } end;
    work();
    end.finish();
    if (graded_static_smem) *graded_static_smem = end.reply.value("graded_static_smem", -1);
    if (!begun.value("ok", false) || !end.reply.value("ok", false)) {
        if (why) *why = begun.value("ok", false) ? end.reply.value("why", "") : begun.value("why", "");
        return std::nullopt;
    }
    std::vector<TracedKernel> out;
    for (const auto& k : end.reply.at("kernels")) {
        TracedKernel t;
        t.name = k.value("name", "?");
        t.static_smem = k.value("static_smem", 0);
        t.dynamic_smem = k.value("dynamic_smem", 0);
        t.ms = k.value("ms", 0.0);
        for (int d = 0; d < 3; ++d) {
            t.grid[d] = k.at("grid").at(d).get<unsigned>();
            t.block[d] = k.at("block").at(d).get<unsigned>();
        }
        t.regular = k.value("regular", true);
        out.push_back(std::move(t));
    }
    return out;
}

std::optional<KernelAttributes> graded_attributes(const void* in_process_kernel) {
    if (!g.enabled) {
        cudaFuncAttributes attr{};
        if (!in_process_kernel || cudaFuncGetAttributes(&attr, in_process_kernel) != cudaSuccess) {
            cudaGetLastError();
            return std::nullopt;
        }
        return KernelAttributes{attr.numRegs, attr.localSizeBytes, attr.sharedSizeBytes};
    }
    const nlohmann::json reply = request(Host::Student, {{"op", "graded_attributes"}});
    if (!reply.value("ok", false)) return std::nullopt;
    return KernelAttributes{reply.value("registers", 0), reply.value("local_bytes", std::size_t(0)),
                            reply.value("static_smem", std::size_t(0))};
}

void start_host(Host host) {
    const nlohmann::json reply = request(host, {{"op", "ready"}});
    if (!reply.value("ok", false))
        throw std::runtime_error("the launch host did not start: " + reply.value("message", std::string()));
}

void probe_in_student_host() {
    const nlohmann::json reply = request(Host::Student, {{"op", "probe"}});
    if (!reply.value("ok", false))
        throw std::runtime_error("the launch host did not run the grader's probe: " + reply.value("message", std::string()));
}

std::vector<std::uint32_t> sample_words(const void* d_ptr, std::size_t bytes, std::uint64_t seed) {
    return sample_words_on_device(d_ptr, bytes / 4, seed);
}

GpuLeftBusy::GpuLeftBusy(const std::string& what) : std::runtime_error(what) {}

GpuDisturbed::GpuDisturbed(const std::string& what) : std::runtime_error(what) {}

namespace {
std::function<void(const std::string&)> disturbed_handler;

[[noreturn]] void disturbed(const std::string& what) {
    if (disturbed_handler) disturbed_handler(what);
    throw GpuDisturbed(what);
}
}  // namespace

void set_disturbed_handler(std::function<void(const std::string&)> handler) { disturbed_handler = std::move(handler); }

namespace {

// Continues every stopped host when time_across ends, however it ends.
struct ResumeHosts {
    ResumeHosts() = default;
    ResumeHosts(const ResumeHosts&) = delete;
    ResumeHosts& operator=(const ResumeHosts&) = delete;
    ~ResumeHosts() {
        for (Process& p : g.hosts) resume(p);
    }
};

// Host-clock ms of a one-block kernel of this program's and the copy of its result, waited for.
double probe_ms() {
    static void* word = nullptr;
    if (!word) CUDA_CHECK(cudaMalloc(&word, sizeof(unsigned)));
    const auto t0 = std::chrono::steady_clock::now();
    sample_words_on_device(word, 1, 1);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Waits until the GPU has no work of another process left: a probe kernel of this program's then runs at
// once, where work of another context still on the GPU (what a stopped host had queued) makes it wait for
// a time slice. Quiet is three probes in a row under kQuietProbeMs, within kQuietWaitS. Where the GPU stays
// busy, the student's process is ended (its CUDA context, and every kernel it queued, go with it) and the
// GPU is given kQuietWaitS more: quiet then, the work was the student's (GpuLeftBusy); still busy, it came
// from outside this grading (disturbed()): no other grading's student code is alive while this one has the
// GPU alone (every check program ends its student's process before it lets the lock go: grading_main.cpp).
constexpr double kQuietProbeMs = 0.5;
constexpr double kQuietWaitS = 3.0;
// Whether the GPU went quiet within kQuietWaitS; @p slowest receives the slowest probe's ms.
bool quiet_within_limit(double& slowest) {
    const auto start = std::chrono::steady_clock::now();
    slowest = 0.0;
    for (int quiet = 0; quiet < 3;) {
        const double ms = probe_ms();
        slowest = std::max(slowest, ms);
        quiet = ms < kQuietProbeMs ? quiet + 1 : 0;
        if (quiet < 3 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kQuietWaitS)
            return false;
    }
    return true;
}
void wait_until_quiet() {
    double slowest = 0.0;
    if (quiet_within_limit(slowest)) return;
    reap(g.hosts[static_cast<int>(Host::Student)]);
    double after = 0.0;
    if (!quiet_within_limit(after))
        disturbed("the GPU stayed busy with work from outside this grading (a one-block kernel of the grader's waited up "
                  "to " + std::to_string(static_cast<int>(after)) + " ms to run, with the student's process ended)");
    throw GpuLeftBusy(
        "the GPU was still busy with work of another process " + std::to_string(kQuietWaitS).substr(0, 3) +
        " s after your code's process was stopped between its calls (a one-block kernel of the grader's waited up "
        "to " + std::to_string(static_cast<int>(slowest)) + " ms to run; ending your process ended it): work left "
        "running would be timed as part of the baseline's and the peer's calls");
}

// Opens @p window. Where the monitors, given back while this program shared the GPU, cannot be taken back,
// the student's process is ended (whatever of the monitors it held goes with it) and they are tried once
// more: taken then, the student's process had them (CountersTaken); still not, something outside this
// grading holds them (disturbed()).
void open_window(std::optional<timed_counters::Window>& window) {
    const bool taking_back = timed_counters::available() && !timed_counters::held();
    try {
        window.emplace();
    } catch (const timed_counters::CountersTaken& e) {
        if (!taking_back) throw;
        reap(g.hosts[static_cast<int>(Host::Student)]);
        timed_counters::take_back();
        try {
            window.emplace();
        } catch (const timed_counters::CountersTaken& again) {
            disturbed(std::string("the GPU's performance monitors were held by a process outside this grading, with "
                                  "the student's process ended (") + again.what() + ")");
        }
        window.reset();
        throw;
    }
}

}  // namespace

std::vector<std::vector<double>> time_across(const std::vector<Contender>& contenders, int slots, int warmup,
                                             int repetitions,
                                             const std::function<void(std::size_t, int)>& before_each,
                                             const std::function<void(std::size_t, int)>& after_each,
                                             std::optional<std::size_t>* late_output, double* boundary_ms,
                                             std::vector<timed_counters::Totals>* counted) {
    using clock = std::chrono::steady_clock;
    const ResumeHosts resume_at_end;
    slots = std::max(slots, 1);
    std::uint64_t draw = course::hash64(0x5eed0fa11ull, static_cast<std::uint64_t>(::getpid()));
    // One batch of contender c: its host-clock time, and the GPU time its host's events gave each call.
    // The calls of a batch of contender c, and the input slot of its call i.
    const auto calls_of = [&](std::size_t c) { return contenders[c].calls > 0 ? contenders[c].calls : slots; };
    const auto slot_of = [&](std::size_t c, int i) { return contenders[c].calls > 0 ? 0 : i; };
    // The monitors sample kSampledRepetitions batches of each of the student's contenders, picked at random
    // (not from anything the student's process can see) among its repetitions: nothing in the student's
    // process tells a sampled batch from another, so a submission that works otherwise in some batches is
    // caught in proportion, and one that does in all of them always. The sampled batches are extra ones,
    // left out of the times: sampling costs the GPU a little, and only the student's batches are sampled.
    const bool sampling = counted && timed_counters::available();
    const int rounds = repetitions + (sampling ? kSampledRepetitions : 0);
    std::vector<std::set<int>> sampled_repetitions(contenders.size());
    if (counted) {
        counted->assign(contenders.size(), timed_counters::Totals{});
        std::random_device entropy;
        for (auto& picked : sampled_repetitions) {
            std::vector<int> order(static_cast<std::size_t>(std::max(rounds, 0)));
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), std::mt19937_64((std::uint64_t(entropy()) << 32) ^ entropy()));
            order.resize(std::min<std::size_t>(order.size(), kSampledRepetitions));
            picked.insert(order.begin(), order.end());
        }
    }
    // Sampling takes host time before a sampled batch (starting the monitors, and waiting for the last
    // window's decode) and after it (stopping them: the rest is done on the side), which the student's
    // process could see as longer waits around that batch. So each of
    // the student's batches that is not sampled waits as long before and after, drawn at random from what
    // that contender's sampled batches took; its warm-up batches are sampled too (their counts dropped), to
    // learn that before any timed batch.
    std::vector<std::vector<double>> leads(contenders.size()), trails(contenders.size());
    // The sampled batches' readings (evaluated on the side while the batches go on), and their calls.
    std::vector<std::vector<std::pair<std::future<timed_counters::Totals>, int>>> readings(contenders.size());
    std::mt19937_64 pace(std::random_device{}());
    const auto wait_like = [&](const std::vector<double>& taken) {
        if (taken.empty()) return;
        const double ms = taken[std::uniform_int_distribution<std::size_t>(0, taken.size() - 1)(pace)];
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms));
    };
    // Where the host's time goes, batch by batch (printed to the lab's log at the end, for tuning).
    enum Phase { Refill, Quiet, Lead, Timed, Trail, Verify, Phases };
    double spent[Phases] = {};
    int batches = 0;
    const auto run_start = clock::now();
    auto mark = clock::now();
    whereabouts::Doing doing("timing across the process boundary");
    struct NoBatch {
        ~NoBatch() { whereabouts::set_batch(-1, -1); }
    } no_batch_at_end;
    const auto charge = [&](Phase p) {
        const auto now = clock::now();
        spent[p] += std::chrono::duration<double>(now - mark).count();
        mark = now;
    };
    int repetition = -1;  // the repetition being run (-1: a warm-up)
    // Whether contender c's batch in the repetition being run is one the monitors sample (not timed).
    const auto sampled_now = [&](std::size_t c) {
        return sampling && repetition >= 0 && contenders[c].host == Host::Student &&
               sampled_repetitions[c].count(repetition) > 0;
    };
    // One batch of contender c; with @p counted_batch, sampled by the monitors (then not timed by the caller).
    auto run_once = [&](std::size_t c, double* ms, std::vector<double>* gpu_ms, bool counted_batch) {
        const Contender& k = contenders[c];
        const int calls = calls_of(c);
        // Each batch starts with both hosts stopped (SIGSTOP, each its whole process group): no thread of the
        // student's process runs until its own next request continues it, so it cannot launch work while
        // the others are timed, nor touch the inputs being refilled. The peers' host is stopped alike, so
        // that continuing a host costs both the same, and the boundary's cost learnt from the peer holds.
        ++batches;
        whereabouts::set_batch(batches, static_cast<int>(c));
        doing.now("timing across the process boundary: refilling the inputs");
        mark = clock::now();
        for (Process& p : g.hosts) stop(p);
        for (int s = 0; s < calls; ++s)
            if (before_each) before_each(c, slot_of(c, s));
        CUDA_CHECK(cudaDeviceSynchronize());
        charge(Refill);
        // And on a GPU that holds nothing of anyone else's: what a host queued before it was stopped has
        // drained (looked at after the inputs were refilled, so no work of its can be waiting for that; a
        // host continued meanwhile, to map a buffer, is stopped again first).
        for (Process& p : g.hosts) stop(p);
        doing.now("timing across the process boundary: waiting for a quiet GPU");
        wait_until_quiet();
        charge(Quiet);
        std::vector<std::uint64_t> seeds(static_cast<std::size_t>(calls));
        for (auto& seed : seeds) {
            ++draw;
            seed = course::hash64(draw, draw);
        }
        std::vector<std::vector<std::uint32_t>> first(seeds.size());
        // Calls that share one output (Lab 06's sink) are sampled once: each sample is a kernel of this
        // program's, and a switch of the GPU between processes. Found before the clock starts.
        std::vector<int> sampled;  // the first call of each distinct output
        {
            std::set<const void*> seen;
            for (int s = 0; s < calls; ++s)
                if (seen.insert(k.output(slot_of(c, s))).second) sampled.push_back(s);
        }
        // The monitors sample the student's timed batches (not the warm-up's), from here to after the clock
        // stopped: starting and stopping them is outside the timed interval.
        const bool paced = sampling && k.host == Host::Student;
        std::optional<timed_counters::Window> window;
        doing.now("timing across the process boundary: starting the performance monitors' window");
        if (counted_batch || (paced && repetition < 0)) {
            open_window(window);
            leads[c].push_back(window->lead_ms());
        } else if (paced) {
            wait_like(leads[c]);
        }
        charge(Lead);
        doing.now("timing across the process boundary: a timed batch");
        const auto t0 = clock::now();
        std::vector<double> gpu;
        {
            Batch batch(k.host, k.back_to_back);
            for (int s = 0; s < calls; ++s) k.run(slot_of(c, s));
            gpu = batch.send();
        }
        for (int s : sampled) first[s] = sample_words(k.output(slot_of(c, s)), k.output_bytes, seeds[s]);
        const auto t1 = clock::now();
        charge(Timed);
        doing.now("timing across the process boundary: stopping the performance monitors' window");
        if (window) {
            std::future<timed_counters::Totals> reading = window->stop();
            trails[c].push_back(window->trail_ms());
            if (counted_batch) readings[c].push_back({std::move(reading), calls});
        } else if (paced) {
            wait_like(trails[c]);
        }
        charge(Trail);
        doing.now("timing across the process boundary: verifying the batch's results");
        if (ms) *ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        if (gpu_ms) *gpu_ms = std::move(gpu);
        for (int s = 0; s < calls; ++s)
            if (after_each) after_each(c, slot_of(c, s));
        // The output as the check program saw it when the clock stopped must be the output it verified.
        for (int s : sampled)
            if (late_output && !*late_output &&
                sample_words(k.output(slot_of(c, s)), k.output_bytes, seeds[s]) != first[s])
                *late_output = c;
        charge(Verify);
    };
    for (int w = 0; w < warmup; ++w)
        for (std::size_t c = 0; c < contenders.size(); ++c) run_once(c, nullptr, nullptr, false);
    std::vector<std::vector<double>> samples(contenders.size());
    std::vector<double> overhead;  // host-clock ms beyond the GPU's own, a batch, in the calibrating batches
    for (int r = 0; r < rounds; ++r) {
        repetition = r;
        for (std::size_t c = 0; c < contenders.size(); ++c) {
            double ms = 0.0;
            std::vector<double> gpu;
            const bool sampled = sampled_now(c);
            run_once(c, &ms, &gpu, sampled);
            if (sampled) continue;  // counted, not timed
            samples[c].push_back(ms);
            if (!contenders[c].calibrates || contenders[c].host != Host::Peers ||
                gpu.size() != static_cast<std::size_t>(calls_of(c)))
                continue;
            double sum = 0.0;
            for (double v : gpu) sum += v;
            overhead.push_back(ms - sum);  // a batch's: what a batch of any length pays
        }
    }
    doing.now("timing across the process boundary: reading the performance monitors' counts");
    for (std::size_t c = 0; c < readings.size(); ++c)
        for (auto& [reading, calls] : readings[c]) {
            timed_counters::Totals t = reading.get();
            t.calls = calls;
            (*counted)[c] += t;
        }
    // What the boundary adds to a batch, learnt from the library peer in the peers' process, whose own events
    // time each call as the in-process timing does (that process holds the course's code only): the median
    // of the host clock's excess over them. It comes off every contender's batches alike, the student's
    // included, whose own process is never asked for a time. (The excess grows a little with a call's
    // length: the peer, a kernel of the student's kind and length, gives the student's; the much slower
    // naive baseline keeps about 2% of its own, so its ratio reads about 2% low.)
    double cost = 0.0;
    if (!overhead.empty()) {
        std::nth_element(overhead.begin(), overhead.begin() + static_cast<std::ptrdiff_t>(overhead.size() / 2),
                         overhead.end());
        cost = std::max(0.0, overhead[overhead.size() / 2]);
    }
    if (boundary_ms) *boundary_ms = cost / slots;
    std::printf("timed across the boundary: %d batches in %.2f s (refilling %.2f, waiting for a quiet GPU %.2f, "
                "before the clock %.2f, timed %.2f, after it %.2f, verifying %.2f)\n",
                batches, std::chrono::duration<double>(clock::now() - run_start).count(), spent[Refill], spent[Quiet],
                spent[Lead], spent[Timed], spent[Trail], spent[Verify]);
    std::fflush(stdout);
    for (std::size_t c = 0; c < samples.size(); ++c)
        for (double& ms : samples[c]) ms = std::max((ms - cost) / calls_of(c), 1e-6);
    return samples;
}

}  // namespace grading::isolation
