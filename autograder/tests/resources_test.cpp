// CPU tests of the dry run's kernel resources (runner/resources.hpp): ptxas's report read back, the
// largest block a kernel can launch, and the warnings for spills and for shared memory that limits the
// blocks an SM holds.
#include <doctest/doctest.h>

#include "resources.hpp"

#include <string>
#include <vector>

using namespace grading;

namespace {
// What `ptxas -v -arch=sm_90` prints for a lab with two kernels and a device function.
const std::string kPtxas = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN5lab0310tiled_gemmEPKfS1_Pfiii' for 'sm_90'
ptxas info    : Function properties for _ZN5lab0310tiled_gemmEPKfS1_Pfiii
    0 bytes stack frame, 24 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 33792 bytes smem, 400 bytes cmem[0]
ptxas info    : Function properties for _ZN5lab036helperEf
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_ZN5lab039small_oneEPf' for 'sm_90'
ptxas info    : Function properties for _ZN5lab039small_oneEPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 8 registers, used 0 barriers, 356 bytes cmem[0]
)";
// The PTX's entries: the first with launch bounds of 256 threads.
const std::string kPtx = R"(.visible .entry _ZN5lab0310tiled_gemmEPKfS1_Pfiii(
	.param .u64 _ZN5lab0310tiled_gemmEPKfS1_Pfiii_param_0
)
.maxntid 256, 1, 1
.minnctapersm 1
{
	ret;
}
.visible .entry _ZN5lab039small_oneEPf(
	.param .u64 _ZN5lab039small_oneEPf_param_0
)
{
	ret;
}
)";
}  // namespace

TEST_CASE("ptxas's report gives each kernel's registers, spills, static shared memory and launch bounds") {
    const auto kernels = parse_ptxas_verbose(kPtxas, kPtx);
    REQUIRE(kernels.size() == 2);  // the device function is no kernel
    CHECK(kernels[0].name == "lab03::tiled_gemm(float const*, float const*, float*, int, int, int)");
    CHECK(kernels[0].registers == 255);
    CHECK(kernels[0].spill_stores == 24);
    CHECK(kernels[0].spill_loads == 16);
    CHECK(kernels[0].shared_bytes == 33792);
    CHECK(kernels[0].launch_bound == 256);
    CHECK(kernels[1].name == "lab03::small_one(float*)");
    CHECK(kernels[1].registers == 8);
    CHECK(kernels[1].spill_stores + kernels[1].spill_loads == 0);
    CHECK(kernels[1].shared_bytes == 0);
    CHECK(kernels[1].launch_bound == 0);
}

TEST_CASE("the largest block follows the registers and the launch bounds") {
    const SmLimits sm90 = sm_limits(90);
    KernelResources k;
    k.registers = 32;
    CHECK(max_block_size(k, sm90) == 1024);
    k.registers = 64;
    CHECK(max_block_size(k, sm90) == 1024);
    k.registers = 72;  // 2304 registers a warp: 28 warps fit in 65536
    CHECK(max_block_size(k, sm90) == 896);
    k.registers = 128;
    CHECK(max_block_size(k, sm90) == 512);
    k.registers = 255;
    CHECK(max_block_size(k, sm90) == 256);
    k.registers = 32;
    k.launch_bound = 128;
    CHECK(max_block_size(k, sm90) == 128);
}

TEST_CASE("a kernel that spills, or whose shared memory limits the blocks an SM holds, is warned about") {
    const SmLimits sm90 = sm_limits(90);
    const auto kernels = parse_ptxas_verbose(kPtxas, kPtx);
    std::vector<std::string> warnings;
    const std::string line = resource_line(kernels[0], sm90, warnings);
    CHECK(line == "lab03::tiled_gemm(float const*, float const*, float*, int, int, int) on sm_90: 255 registers, spills "
                  "24 bytes (stores) and 16 bytes (loads), 33792 bytes of static shared memory, blocks of up to 256 "
                  "threads (its launch bounds: 256)");
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].find("spills registers to local memory on sm_90 (24 bytes stored, 16 loaded") != std::string::npos);
    // 228 KiB an SM, 33 KiB and the 1 KiB the system reserves a block: 6 blocks, not the 32 an SM can hold.
    CHECK(blocks_by_shared_memory(kernels[0], sm90) == 6);
    CHECK(warnings[1].find("let an sm_90 SM hold 6 of its blocks at once") != std::string::npos);
    CHECK(warnings[1].find("fewer than 342 threads") != std::string::npos);

    // No spills, no shared memory: a line and no warning.
    warnings.clear();
    CHECK(resource_line(kernels[1], sm90, warnings) ==
          "lab03::small_one(float*) on sm_90: 8 registers, no spills, 0 bytes of static shared memory, blocks of up to "
          "1024 threads");
    CHECK(warnings.empty());
    // A small tile leaves the SM's own block limit in charge: no warning.
    KernelResources tile = kernels[1];
    tile.shared_bytes = 32 * 33 * 4;
    CHECK(blocks_by_shared_memory(tile, sm90) == 32);
    resource_line(tile, sm90, warnings);
    CHECK(warnings.empty());
}

TEST_CASE("each architecture has its own SM limits") {
    CHECK(sm_limits(75).shared_bytes == 64 * 1024);
    CHECK(sm_limits(75).threads == 1024);
    CHECK(sm_limits(86).blocks == 16);
    CHECK(sm_limits(89).threads == 1536);
    CHECK(sm_limits(90).shared_bytes == 228 * 1024);
    CHECK(sm_limits(100).sm == 100);  // a newer one takes the nearest older one's figures
    CHECK(sm_limits(100).shared_bytes == 228 * 1024);
}
