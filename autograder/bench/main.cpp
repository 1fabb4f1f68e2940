// bench: times each lab's reference solution against its naive baseline and its library peer, interleaved,
// at the speed checks' sizes, with a measured copy roofline; prints a table and writes a CSV and an SVG chart.
// docs/pages/bench.md explains how to run it and what each column means.
//
//   bench [--lab NN]... [--rounds N] [--warmup N] [--seed S] [--csv FILE] [--svg FILE]
//
// Exit status: 0 when every output was right; 1 when one was wrong or a lab could not run; 2 for a bad command
// line; 77 without a GPU (ctest's skip code, as the grader's programs); 78 on a GPU this build cannot use.
#include "bench.hpp"

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "random.hpp"

#include <CLI/CLI.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#ifndef BENCH_OUTPUT_DIR
#define BENCH_OUTPUT_DIR "bench"
#endif

namespace {

// The NVIDIA driver's version ("570.124.06") through NVML, loaded only if present: the bench runs, and
// says so, where it is not. "" when it cannot be read.
std::string nvidia_driver_version() {
    void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nvml) return "";
    using init_fn = int (*)();
    using version_fn = int (*)(char*, unsigned);
    const auto init = reinterpret_cast<init_fn>(dlsym(nvml, "nvmlInit_v2"));
    const auto version = reinterpret_cast<version_fn>(dlsym(nvml, "nvmlSystemGetDriverVersion"));
    const auto shutdown = reinterpret_cast<init_fn>(dlsym(nvml, "nvmlShutdown"));
    std::string v;
    if (init && version && init() == 0) {
        char buf[96] = {};
        if (version(buf, sizeof buf) == 0) v = buf;
        if (shutdown) shutdown();
    }
    dlclose(nvml);
    return v;
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
    return buf;
}

// "01 to 05": the labs the bench has, for its messages.
std::string lab_range() {
    const auto& labs = bench::labs();
    return labs.empty() ? "none" : labs.begin()->first + " to " + labs.rbegin()->first;
}

}  // namespace

std::map<std::string, bench::LabBench>& bench::labs() {
    static std::map<std::string, LabBench> registered;
    return registered;
}

int main(int argc, char** argv) {
    CLI::App app{"Times each lab's reference solution against its naive baseline and its library peer (interleaved, "
                 "medians, every output checked), with a measured copy roofline; prints a table and writes a CSV "
                 "and an SVG bar chart."};
    std::vector<std::string> lab_args;
    bench::Options options;
    std::string seed_text;
    std::string csv_path = std::string(BENCH_OUTPUT_DIR) + "/bench.csv";
    std::string svg_path = std::string(BENCH_OUTPUT_DIR) + "/bench.svg";
    app.add_option("--lab", lab_args, "lab to time, " + lab_range() + " (repeatable; default: all of them)");
    app.add_option("--rounds", options.rounds, "timed runs of each contender; the medians are over these")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--warmup", options.warmup, "untimed runs of each contender first")
        ->check(CLI::Range(0, 100))
        ->capture_default_str();
    app.add_option("--seed", seed_text, "seed for the random inputs: a non-negative integer (default: fresh; printed)");
    app.add_option("--csv", csv_path, "where to write the CSV")->capture_default_str();
    app.add_option("--svg", svg_path, "where to write the SVG bar chart")->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return 0;
    } catch (const CLI::ParseError& e) {
        std::cerr << "bench: " << e.what() << "\nRun 'bench --help' for the options.\n";
        return 2;
    }

    std::vector<std::string> labs;
    for (const std::string& a : lab_args) {
        std::smatch m;
        if (!std::regex_match(a, m, std::regex("(?:lab)?0?([1-9])"))) {
            std::cerr << "bench: --lab " << a << ": give a lab number, " << lab_range() << "\n";
            return 2;
        }
        const std::string id = "0" + m[1].str();
        if (!bench::labs().count(id)) {
            std::cerr << "bench: --lab " << a << ": Lab " << id << " has no benchmark (only Labs " << lab_range()
                      << " time a solution against a library peer; Lab 06 measures bank conflicts, not throughput)\n";
            return 2;
        }
        labs.push_back(id);
    }
    if (labs.empty())
        for (const auto& [id, fn] : bench::labs()) labs.push_back(id);
    std::sort(labs.begin(), labs.end());
    labs.erase(std::unique(labs.begin(), labs.end()), labs.end());

    if (!seed_text.empty()) {
        const auto seed = course::parse_seed(seed_text);
        if (!seed) {
            std::cerr << "bench: --seed " << seed_text << " is not a seed (a non-negative integer)\n";
            return 2;
        }
        options.seed = *seed;
    } else {
        options.seed = course::seed_from_env_or_entropy();
    }

    const course::GpuCheck gpu = course::check_gpu();
    if (gpu.status != course::GpuStatus::Ready) {
        std::cerr << "bench: no usable GPU, nothing timed: " << gpu.message << std::endl;
        return gpu.exit_code();  // 77 (no GPU) is ctest's skip code
    }

    int status = 0;
    try {
        const course::DeviceInfo device = course::query_device();
        const std::string driver = nvidia_driver_version();
        std::cout << "GPU:    " << device.fingerprint() << "\n"
                  << "driver: " << (driver.empty() ? "NVIDIA driver version not readable (no NVML)" : driver) << "\n"
                  << "seed:   " << options.seed << "  (rerun with --seed " << options.seed << " to reproduce)\n"
                  << "timing: " << options.warmup << " warm-up + " << options.rounds
                  << " timed runs of each contender, round robin, CUDA events between device-wide "
                     "synchronisations; medians; every call's output checked\n"
                  << std::flush;

        // The copy roofline, once: 512 MiB each way, ten times any L2.
        const bench::Row roofline = bench::copy_roofline(std::size_t(512) << 20, options);
        if (!roofline.ok) status = 1;

        std::vector<bench::Row> rows;
        for (const std::string& id : labs) {
            std::cout << "timing lab " << id << " ..." << std::endl;
            try {
                std::vector<bench::Row> more = bench::labs().at(id)(options);
                rows.insert(rows.end(), more.begin(), more.end());
            } catch (const course::CudaError& e) {
                std::cerr << "bench: lab " << id << ": " << e.what() << std::endl;
                status = 1;
                if (e.is_sticky()) break;  // the context is lost: nothing else can run in this process
            } catch (const std::exception& e) {
                std::cerr << "bench: lab " << id << ": " << e.what() << std::endl;
                status = 1;
            }
        }
        for (bench::Row& r : rows) {
            if (!r.ok) status = 1;
            if (r.ok && r.bound == bench::Bound::Memory && roofline.ok && roofline.throughput > 0)
                r.of_roofline = r.throughput / roofline.throughput;
        }

        bench::print_table(rows, roofline);
        const std::string gpu_name = device.name + (driver.empty() ? "" : ", driver " + driver);
        bench::write_csv(csv_path, rows, roofline, gpu_name);
        bench::write_svg(svg_path, rows, roofline, "Shared-memory references against the naive baseline and the peer",
                         gpu_name + ", " + utc_now() + ", seed " + std::to_string(options.seed) + ", median of " +
                             std::to_string(options.rounds) + " interleaved runs");
        std::cout << "\nCSV: " << csv_path << "\nSVG: " << svg_path << std::endl;
    } catch (const std::exception& e) {
        std::cerr << "bench: " << e.what() << std::endl;
        return 1;
    }
    return status;
}
