/// @file resources.hpp
/// @brief What each of a lab's kernels costs the GPU, for the dry run: registers, spills, static shared
/// memory and the largest block it can launch, as ptxas reports them for one GPU architecture.
///
/// The graded file is compiled to PTX with the labs' flags, then assembled by ptxas with `-v`; the launch
/// bounds (`.maxntid`, `.reqntid`) come from the PTX. Students otherwise run `nvcc -Xptxas -v` by hand.
#pragma once

#include <string>
#include <vector>

namespace grading {

/// @brief One kernel's resources on one architecture.
struct KernelResources {
    std::string name;          ///< demangled, as the student wrote it (`lab01::block_sum(float const*, ...)`)
    int registers = 0;         ///< a thread
    int spill_stores = 0;      ///< bytes a thread stores to local memory for want of registers
    int spill_loads = 0;       ///< bytes it loads back
    int shared_bytes = 0;      ///< static shared memory a block (`__shared__` arrays; dynamic shared memory is not known here)
    int launch_bound = 0;      ///< threads a block its `__launch_bounds__` (or required size) allows; 0 when none
};

/// @brief What one SM of an architecture holds (the CUDA Programming Guide's table of compute capabilities).
struct SmLimits {
    int sm = 90;                   ///< the architecture, e.g. 90 for sm_90
    int registers = 65536;         ///< 32-bit registers an SM (and a block)
    int threads_per_block = 1024;  ///< the largest block
    int threads = 2048;            ///< resident threads an SM
    int blocks = 32;               ///< resident blocks an SM
    int shared_bytes = 233472;     ///< shared memory an SM, for blocks
    int reserved_bytes = 1024;     ///< shared memory the system reserves for each resident block
};

/// @brief The limits of sm_@p sm (architectures the table lacks take those of the nearest older one).
SmLimits sm_limits(int sm);

/// @brief Parses `ptxas -v` output (entry functions only) and takes each kernel's launch bounds from @p ptx.
std::vector<KernelResources> parse_ptxas_verbose(const std::string& ptxas_output, const std::string& ptx);

/// @brief The largest block @p k can be launched with: 1024, its launch bounds, or what its registers allow.
int max_block_size(const KernelResources& k, const SmLimits& sm);

/// @brief How many blocks of @p k an SM can hold as far as its static shared memory goes (its block limit
/// when it uses none).
int blocks_by_shared_memory(const KernelResources& k, const SmLimits& sm);

/// @brief The dry run's line for @p k, and in @p warnings what deserves one: spills, and static shared
/// memory that lets an SM hold fewer blocks than its block limit.
std::string resource_line(const KernelResources& k, const SmLimits& sm, std::vector<std::string>& warnings);

/// @brief The outcome of kernel_resources().
struct ResourceReport {
    std::vector<KernelResources> kernels;  ///< in the order ptxas reports them
    std::vector<std::string> warnings;     ///< the compiler's warnings, one line each
    std::string error;                     ///< non-empty when the resources could not be read (why)
};

/// @brief Compiles @p source (the graded file) for sm_@p arch and reads its kernels' resources.
/// @param nvcc the CUDA compiler; ptxas is taken from its folder
/// @param flags the labs' compiler flags (space-separated), with `-std=c++@p standard`, `-I` for each of
///        @p include_dirs
/// @param work_dir a folder for the PTX, the cubin and the tools' output (created)
/// @param launcher what the compile of the student's code runs under (confined_compile and its options, the
///        last one `--`), or empty
ResourceReport kernel_resources(const std::string& nvcc, const std::string& flags, const std::string& standard, int arch,
                                const std::string& source, const std::vector<std::string>& include_dirs,
                                const std::string& work_dir, const std::vector<std::string>& launcher = {});

}  // namespace grading
