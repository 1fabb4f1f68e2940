// Kernel resources for the dry run (see resources.hpp).
#include "resources.hpp"

#include "audit.hpp"
#include "process.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace grading {

SmLimits sm_limits(int sm) {
    // sm, registers, threads a block, threads an SM, blocks an SM, shared memory an SM, reserved a block
    static const std::vector<SmLimits> table = {
        {75, 65536, 1024, 1024, 16, 65536, 0},     {80, 65536, 1024, 2048, 32, 167936, 1024},
        {86, 65536, 1024, 1536, 16, 102400, 1024}, {87, 65536, 1024, 2048, 16, 167936, 1024},
        {89, 65536, 1024, 1536, 24, 102400, 1024}, {90, 65536, 1024, 2048, 32, 233472, 1024},
    };
    SmLimits l = table.front();
    for (const auto& t : table)
        if (t.sm <= sm) l = t;
    l.sm = sm;
    return l;
}

std::vector<KernelResources> parse_ptxas_verbose(const std::string& ptxas_output, const std::string& ptx) {
    // Launch bounds from the PTX: the directives between an entry's name and its body.
    std::map<std::string, int> bounds;
    {
        static const std::regex entry(R"(\.entry\s+([A-Za-z0-9_$.]+)\s*\()");
        static const std::regex ntid(R"(\.(maxntid|reqntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)");
        std::istringstream in(ptx);
        std::string line, current;
        std::smatch m;
        while (std::getline(in, line)) {
            if (std::regex_search(line, m, entry)) current = m[1];
            else if (!current.empty() && line.find('{') != std::string::npos) current.clear();
            else if (!current.empty() && std::regex_search(line, m, ntid)) {
                int threads = 1;
                for (int g = 2; g <= 4; ++g)
                    if (m[g].matched) threads *= std::stoi(m[g]);
                bounds[current] = bounds.count(current) ? std::min(bounds[current], threads) : threads;
            }
        }
    }
    static const std::regex compiling(R"(Compiling entry function '([^']+)')");
    static const std::regex properties(R"(Function properties for ([^\s]+))");
    static const std::regex spills(R"((\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex used(R"(Used (\d+) registers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    std::vector<KernelResources> out;
    std::map<std::string, std::size_t> index;  // mangled name -> its entry in out
    std::string entry, props;
    std::istringstream in(ptxas_output);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_search(line, m, compiling)) {
            entry = m[1];
            if (!index.count(entry)) {
                index[entry] = out.size();
                KernelResources k;
                k.name = demangle(entry);
                if (bounds.count(entry)) k.launch_bound = bounds[entry];
                out.push_back(k);
            }
        } else if (std::regex_search(line, m, properties)) {
            props = m[1];
        } else if (std::regex_search(line, m, spills)) {
            if (index.count(props)) {
                out[index[props]].spill_stores = std::stoi(m[1]);
                out[index[props]].spill_loads = std::stoi(m[2]);
            }
        } else if (std::regex_search(line, m, used) && index.count(entry)) {
            KernelResources& k = out[index[entry]];
            k.registers = std::stoi(m[1]);
            if (std::regex_search(line, m, smem)) k.shared_bytes = std::stoi(m[1]);
        }
    }
    return out;
}

int max_block_size(const KernelResources& k, const SmLimits& sm) {
    // Registers are given out a warp at a time, in units of 256.
    const int per_warp = std::max(256, (k.registers * 32 + 255) / 256 * 256);
    int threads = std::min(sm.threads_per_block, sm.registers / per_warp * 32);
    if (k.launch_bound > 0) threads = std::min(threads, k.launch_bound);
    return threads;
}

int blocks_by_shared_memory(const KernelResources& k, const SmLimits& sm) {
    if (k.shared_bytes == 0) return sm.blocks;
    return std::min(sm.blocks, sm.shared_bytes / (k.shared_bytes + sm.reserved_bytes));
}

std::string resource_line(const KernelResources& k, const SmLimits& sm, std::vector<std::string>& warnings) {
    const std::string arch = "sm_" + std::to_string(sm.sm);
    std::ostringstream line;
    line << k.name << " on " << arch << ": " << k.registers << " registers, "
         << (k.spill_stores + k.spill_loads == 0
                 ? std::string("no spills")
                 : "spills " + std::to_string(k.spill_stores) + " bytes (stores) and " + std::to_string(k.spill_loads) +
                       " bytes (loads)")
         << ", " << k.shared_bytes << " bytes of static shared memory, blocks of up to " << max_block_size(k, sm)
         << " threads";
    if (k.launch_bound > 0) line << " (its launch bounds: " << k.launch_bound << ")";
    if (k.spill_stores + k.spill_loads > 0)
        warnings.push_back(k.name + " spills registers to local memory on " + arch + " (" + std::to_string(k.spill_stores) +
                           " bytes stored, " + std::to_string(k.spill_loads) +
                           " loaded, a thread): those accesses go through the caches to device memory; fewer live "
                           "values (a smaller register tile, fewer unrolled loads) or looser launch bounds avoid them");
    const int blocks = blocks_by_shared_memory(k, sm);
    if (k.shared_bytes > 0 && blocks < sm.blocks) {
        const int fill = blocks > 0 ? (sm.threads + blocks - 1) / blocks : 0;
        warnings.push_back(
            k.name + ": its " + std::to_string(k.shared_bytes) + " bytes of static shared memory a block let an " + arch +
            " SM hold " + std::to_string(blocks) + " of its blocks at once (the SM's own limit is " + std::to_string(sm.blocks) +
            " blocks, " + std::to_string(sm.shared_bytes / 1024) + " KiB of shared memory)" +
            (blocks > 0 ? ": with blocks of fewer than " + std::to_string(fill) + " threads the SM runs below its " +
                              std::to_string(sm.threads) + " threads, with fewer warps to hide memory latency"
                        : ": a block does not fit at all"));
    }
    return line.str();
}

ResourceReport kernel_resources(const std::string& nvcc, const std::string& flags, const std::string& standard, int arch,
                                const std::string& source, const std::vector<std::string>& include_dirs,
                                const std::string& work_dir, const std::vector<std::string>& launcher) {
    ResourceReport r;
    std::error_code ec;
    fs::remove_all(work_dir, ec);  // the compile may read it: nothing of an earlier submission's stays there
    fs::create_directories(work_dir, ec);
    const std::string a = std::to_string(arch);
    const fs::path ptx = fs::path(work_dir) / "kernels.ptx", cubin = fs::path(work_dir) / "kernels.cubin";
    const fs::path compile_log = fs::path(work_dir) / "nvcc.log", ptxas_log = fs::path(work_dir) / "ptxas.log";

    std::vector<std::string> cmd = launcher;
    cmd.insert(cmd.end(), {nvcc, "-x", "cu", "-ptx", "-arch=compute_" + a});
    if (!standard.empty()) cmd.push_back("-std=c++" + standard);
    std::istringstream words(flags);
    for (std::string w; words >> w;) cmd.push_back(w);
    for (const auto& d : include_dirs) cmd.push_back("-I" + d);
    cmd.insert(cmd.end(), {source, "-o", ptx.string()});
    double seconds = 0;
    const ProcessOutcome c = run_with_timeout(cmd, 600, compile_log.string(), seconds);
    const std::string compiler_output = read_text_file(compile_log.string()).value_or("");
    std::istringstream lines(compiler_output);
    for (std::string line; std::getline(lines, line);)
        if (line.find(": warning") != std::string::npos) r.warnings.push_back(line);
    if (c.kind != ProcessOutcome::Kind::Exited || c.code != 0) {
        r.error = "compiling for sm_" + a + " failed: " + first_error_line(compiler_output);
        return r;
    }
    const std::string ptxas = (fs::path(nvcc).parent_path() / "ptxas").string();
    const ProcessOutcome p =
        run_with_timeout({ptxas, "-v", "-arch=sm_" + a, ptx.string(), "-o", cubin.string()}, 600, ptxas_log.string(), seconds);
    const std::string ptxas_output = read_text_file(ptxas_log.string()).value_or("");
    if (p.kind != ProcessOutcome::Kind::Exited || p.code != 0) {
        r.error = "ptxas failed for sm_" + a + ": " + first_error_line(ptxas_output);
        return r;
    }
    r.kernels = parse_ptxas_verbose(ptxas_output, read_text_file(ptx.string()).value_or(""));
    return r;
}

}  // namespace grading
