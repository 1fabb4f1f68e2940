// A launch host's loop (see launch_host.hpp and isolation.hpp).
#include "launch_host.hpp"

#include "kernel_trace.hpp"
#include "driver_api.hpp"
#include "launch_wire.hpp"
#include "profile_probe.hpp"

#include "cuda_check.hpp"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>

namespace grading::launch_host {

Arguments::Arguments(const nlohmann::json& encoded,
                     std::function<void*(std::uint64_t id, std::uint64_t offset)> resolve) {
    if (!encoded.is_array()) throw std::invalid_argument("arguments are not a list");
    arrays_.reserve(encoded.size());
    for (const auto& e : encoded) {
        Value v;
        if (e.contains("i")) {
            v.integer_only = true;
            v.integer = e.at("i").get<std::int64_t>();
        } else if (e.contains("p")) {
            v.pointer = resolve(e.at("p").at(0).get<std::uint64_t>(), e.at("p").at(1).get<std::uint64_t>());
        } else if (e.contains("floats")) {
            arrays_.push_back(e.at("floats").get<std::vector<float>>());
            v.pointer = arrays_.back().data();
        } else if (!e.contains("null")) {
            throw std::invalid_argument("an argument of unknown kind");
        }
        values_.push_back(v);
    }
}

namespace {

struct Mapping {
    CUdeviceptr base = 0;
    std::size_t size = 0;
};

struct Staged {
    void* exact = nullptr;  // an allocation of exactly the argument's extent
    void* mapped = nullptr;
    std::size_t bytes = 0;
};

nlohmann::json cuda_failure(cudaError_t e) {
    return {{"ok", false},
            {"kind", "cuda"},
            {"code", static_cast<int>(e)},
            {"sticky", course::CudaError::is_sticky_error(e)},
            {"message", std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"}};
}

// Waits for everything the call started, on every stream of the device, and takes the error it left.
cudaError_t finish_device() {
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) e = cudaGetLastError();
    return e;
}

int g_channel = -1;  // the channel to the check program, for call_back()

}  // namespace

void call_back(const std::string& name, const std::vector<std::int64_t>& integers) {
    if (g_channel < 0) throw std::runtime_error("no check program to call back");
    CUDA_CHECK(cudaDeviceSynchronize());
    wire::send(g_channel, {{"callback", name}, {"integers", integers}});
    const wire::Received r = wire::receive(g_channel);
    if (r.fd >= 0) ::close(r.fd);
    if (r.message.value("ok", false)) return;
    const std::string message = r.message.value("message", std::string("the callback failed"));
    if (r.message.value("kind", "") == "invalid") throw std::invalid_argument(message);
    throw std::runtime_error(message);
}

int serve(int argc, char** argv, const std::map<std::string, Entry>& ops, const void* graded_kernel) {
    int channel = -1;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--channel") == 0) channel = std::atoi(argv[i + 1]);
    if (channel < 0) {
        std::cerr << argv[0] << ": a launch host is started by a lab's check program (--channel FD)\n";
        return 2;
    }
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // Not dumpable, like the check program: another process of this user (the other host: the student's
    // code against the peers' process) cannot open its memory through /proc where ptrace is not restricted.
    ::prctl(PR_SET_DUMPABLE, 0);
    g_channel = channel;
    std::map<std::uint64_t, Mapping> mappings;
    bool tracing = false;
    // Without a usable GPU (a check program's CPU-only checks), host-side operations still run; calls are
    // then neither timed nor waited for on the device.
    const bool gpu = cudaFree(nullptr) == cudaSuccess;
    cudaGetLastError();

    // One call of the lab's code: decodes its arguments, runs it, waits for the whole device and answers.
    // wait: whether the device is waited for after the call (always, except inside a back-to-back batch,
    // whose calls queue one behind another and are waited for after the last).
    const auto run_call = [&](const nlohmann::json& m, bool wait) -> nlohmann::json {
        nlohmann::json reply = {{"ok", true}};
        const auto it = ops.find(m.at("name").get<std::string>());
        if (it == ops.end()) throw std::invalid_argument("no operation " + m.at("name").get<std::string>());
        const bool exact = m.value("exact", false);
        std::vector<Staged> staged;
        const Arguments args(m.at("args"), [&](std::uint64_t id, std::uint64_t offset) -> void* {
            const auto mp = mappings.find(id);
            if (mp == mappings.end() || offset > mp->second.size)
                throw std::invalid_argument("a buffer that is not mapped");
            return reinterpret_cast<void*>(mp->second.base + offset);
        });
        // Under the memory and race check, every buffer is handed over as an allocation of exactly
        // its extent, so that a read one element past the end falls outside every allocation.
        const Arguments* use = &args;
        std::optional<Arguments> exact_args;
        if (exact) {
            nlohmann::json re = m.at("args");
            for (std::size_t i = 0; i < re.size(); ++i) {
                if (!re[i].contains("p")) continue;
                Staged s;
                s.mapped = args.get<void*>(i);
                s.bytes = re[i].at("p").at(2).get<std::size_t>();
                if (s.bytes > 0) {
                    CUDA_CHECK(cudaMalloc(&s.exact, s.bytes));
                    CUDA_CHECK(cudaMemcpy(s.exact, s.mapped, s.bytes, cudaMemcpyDeviceToDevice));
                }
                re[i] = {{"p", {staged.size(), 0, s.bytes}}};
                staged.push_back(s);
            }
            exact_args.emplace(re, [&](std::uint64_t id, std::uint64_t) -> void* { return staged.at(id).exact; });
            use = &*exact_args;
        }
        // The call's GPU time, by events around it on the default stream, as the in-process timing takes it:
        // the check program reads it from the peers' host only (a trusted one), to learn what the boundary
        // adds to a call's time on the host's clock (isolation::time_across()).
        static cudaEvent_t started = nullptr, ended = nullptr;
        if (gpu && !started) {
            CUDA_CHECK(cudaEventCreate(&started));
            CUDA_CHECK(cudaEventCreate(&ended));
        }
        if (gpu && wait) CUDA_CHECK(cudaEventRecord(started, 0));
        bool threw = false;
        nlohmann::json value;
        try {
            value = it->second(*use);
        } catch (const course::CudaError& e) {
            reply = cuda_failure(e.code());
            reply["message"] = e.what();
            threw = true;
        } catch (const std::exception& e) {
            reply = {{"ok", false}, {"kind", "threw"}, {"message", std::string("threw: ") + e.what()}};
            threw = true;
        } catch (...) {
            reply = {{"ok", false}, {"kind", "threw"}, {"message", "threw something that is not a std::exception"}};
            threw = true;
        }
        float gpu_ms = 0.0f;
        if (gpu && wait) {
            cudaEventRecord(ended, 0);
            if (const cudaError_t e = finish_device(); e != cudaSuccess && !threw) reply = cuda_failure(e);
            if (reply.value("ok", false) && cudaEventElapsedTime(&gpu_ms, started, ended) == cudaSuccess)
                reply["gpu_ms"] = gpu_ms;
        } else if (const cudaError_t e = gpu ? cudaGetLastError() : cudaSuccess; e != cudaSuccess && !threw) {
            reply = cuda_failure(e);
        }
        if (reply.value("ok", false) && !value.is_null()) reply["value"] = value;
        cudaGetLastError();
        for (const Staged& s : staged) {
            if (s.exact && !reply.value("sticky", false))
                cudaMemcpy(s.mapped, s.exact, s.bytes, cudaMemcpyDeviceToDevice);
            if (s.exact) cudaFree(s.exact);
        }
        return reply;
    };

    for (;;) {
        wire::Received in;
        try {
            in = wire::receive(channel);
        } catch (const wire::ChannelClosed&) {
            return 0;  // the check program is done
        }
        const nlohmann::json& m = in.message;
        const std::string op = m.value("op", "");
        nlohmann::json reply = {{"ok", true}};
        bool end_after = false;
        try {
            if (op == "map") {
                Mapping mp;
                mp.size = m.at("size").get<std::size_t>();
                CUmemGenericAllocationHandle h = 0;
                CUresult r = driver().MemImportFromShareableHandle(&h, reinterpret_cast<void*>(static_cast<std::uintptr_t>(in.fd)),
                                                            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
                if (in.fd >= 0) ::close(in.fd);
                in.fd = -1;
                if (r == CUDA_SUCCESS) r = driver().MemAddressReserve(&mp.base, mp.size, 0, 0, 0);
                if (r == CUDA_SUCCESS) r = driver().MemMap(mp.base, mp.size, 0, h, 0);
                if (h) driver().MemRelease(h);  // the mapping keeps the memory
                if (r == CUDA_SUCCESS) {
                    int ordinal = 0;
                    cudaGetDevice(&ordinal);
                    CUmemAccessDesc access{};
                    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
                    access.location.id = ordinal;
                    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
                    r = driver().MemSetAccess(mp.base, mp.size, &access, 1);
                }
                if (r != CUDA_SUCCESS) {
                    const char* name = nullptr;
                    driver().GetErrorName(r, &name);
                    reply = {{"ok", false}, {"kind", "refused"}, {"message", name ? name : "mapping failed"}};
                } else {
                    mappings[m.at("id").get<std::uint64_t>()] = mp;
                }
            } else if (op == "unmap") {
                const auto it = mappings.find(m.at("id").get<std::uint64_t>());
                if (it != mappings.end()) {
                    cudaDeviceSynchronize();
                    driver().MemUnmap(it->second.base, it->second.size);
                    driver().MemAddressFree(it->second.base, it->second.size);
                    mappings.erase(it);
                }
            } else if (op == "call") {
                reply = run_call(m, true);
            } else if (op == "calls") {
                // A batch: the calls run one after another, the device waited for after each, and the
                // answer is the first failure (with its index) or success, once, for all of them. Back to
                // back (where no call's output is read: Lab 06's curve), the calls queue one behind another
                // and the device is waited for after the last; each call's GPU time is then the batch's
                // share, by events around the whole batch.
                const auto& calls = m.at("calls");
                const bool back_to_back = gpu && m.value("back_to_back", false) && !calls.empty();
                static cudaEvent_t batch_started = nullptr, batch_ended = nullptr;
                if (back_to_back && !batch_started) {
                    CUDA_CHECK(cudaEventCreate(&batch_started));
                    CUDA_CHECK(cudaEventCreate(&batch_ended));
                }
                if (back_to_back) CUDA_CHECK(cudaEventRecord(batch_started, 0));
                nlohmann::json gpu_ms = nlohmann::json::array();
                for (std::size_t i = 0; i < calls.size(); ++i) {
                    reply = run_call(calls[i], !back_to_back);
                    if (!reply.value("ok", false)) {
                        reply["index"] = i;
                        break;
                    }
                    gpu_ms.push_back(reply.value("gpu_ms", 0.0));
                }
                if (back_to_back) {
                    cudaEventRecord(batch_ended, 0);
                    const cudaError_t e = finish_device();
                    float total = 0.0f;
                    if (reply.value("ok", false) && e != cudaSuccess) {
                        reply = cuda_failure(e);
                        reply["index"] = calls.size() - 1;
                    } else if (reply.value("ok", false) &&
                               cudaEventElapsedTime(&total, batch_started, batch_ended) == cudaSuccess) {
                        gpu_ms = nlohmann::json::array();
                        for (std::size_t i = 0; i < calls.size(); ++i) gpu_ms.push_back(total / calls.size());
                    }
                    cudaGetLastError();
                }
                if (reply.value("ok", false)) reply["gpu_ms"] = gpu_ms;
            } else if (op == "trace_begin") {
                std::string why;
                tracing = trace_begin(&why);
                if (!tracing) reply = {{"ok", false}, {"why", why}};
            } else if (op == "trace_end") {
                nlohmann::json kernels = nlohmann::json::array();
                if (tracing) {
                    for (const TracedKernel& k : trace_end())
                        kernels.push_back({{"name", k.name},
                                           {"static_smem", k.static_smem},
                                           {"dynamic_smem", k.dynamic_smem},
                                           {"ms", k.ms},
                                           {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
                                           {"block", {k.block[0], k.block[1], k.block[2]}},
                                           {"regular", k.regular}});
                } else {
                    reply = {{"ok", false}, {"why", "the trace did not start"}};
                }
                tracing = false;
                reply["kernels"] = kernels;
                int smem = -1;
                cudaFuncAttributes attr{};
                if (graded_kernel && cudaFuncGetAttributes(&attr, graded_kernel) == cudaSuccess)
                    smem = static_cast<int>(attr.sharedSizeBytes);
                cudaGetLastError();
                reply["graded_static_smem"] = smem;
            } else if (op == "graded_attributes") {
                cudaFuncAttributes attr{};
                if (graded_kernel && cudaFuncGetAttributes(&attr, graded_kernel) == cudaSuccess)
                    reply = {{"ok", true},
                             {"registers", attr.numRegs},
                             {"local_bytes", attr.localSizeBytes},
                             {"static_smem", attr.sharedSizeBytes}};
                else
                    reply = {{"ok", false}, {"kind", "refused"}, {"message", "no graded kernel"}};
                cudaGetLastError();
            } else if (op == "probe") {
                // The grader's probe kernel, between two calls of the profile workload (never in a graded run).
                cudaDeviceSynchronize();
                run_profile_probe();
            } else if (op == "ready") {
                // Started: the CUDA context made, nothing launched (the check program starts a host so
                // before it has the GPU alone).
                CUDA_CHECK(cudaFree(nullptr));
            } else if (op == "quit") {
                end_after = true;
            } else {
                reply = {{"ok", false}, {"kind", "refused"}, {"message", "unknown request '" + op + "'"}};
            }
        } catch (const course::CudaError& e) {
            reply = cuda_failure(e.code());
            reply["message"] = e.what();
        } catch (const std::exception& e) {
            reply = {{"ok", false}, {"kind", "refused"}, {"message", e.what()}};
        }
        if (in.fd >= 0) ::close(in.fd);
        try {
            wire::send(channel, reply);
        } catch (const wire::ChannelClosed&) {
            return 0;
        }
        // A crashed kernel leaves the context unusable: the check program starts a new host if it goes on.
        if (end_after || reply.value("sticky", false)) return reply.value("sticky", false) ? 3 : 0;
    }
}

}  // namespace grading::launch_host
