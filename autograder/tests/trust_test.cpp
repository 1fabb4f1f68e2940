// CPU tests of what makes a verdict trustworthy: the graded file is rebuilt from the course's skeleton,
// the lab's object is audited, and only a faithful record stream through the grader's channel counts.
#include <doctest/doctest.h>

#include "audit.hpp"
#include "process.hpp"
#include "regions.hpp"
#include "results.hpp"
#include "staging.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace grading;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
const std::string kSkeleton = R"(// the course's file
namespace lab01 {
// BEGIN STUDENT REGION constants
constexpr int kTile = 1;
// END STUDENT REGION
__global__ void kernel(float* x, int n) {
    // BEGIN STUDENT REGION kernel
    // TODO
    // END STUDENT REGION
}
const void* graded_kernel() { return reinterpret_cast<const void*>(&kernel); }
}  // namespace lab01
)";

std::string submission(const std::string& constants, const std::string& kernel, const std::string& outside = "") {
    return "// the course's file\nnamespace lab01 {\n// BEGIN STUDENT REGION constants\n" + constants +
           "\n// END STUDENT REGION\n__global__ void kernel(float* x, int n) {\n    // BEGIN STUDENT REGION kernel\n" +
           kernel + "\n    // END STUDENT REGION\n}\nconst void* graded_kernel() { return " +
           (outside.empty() ? "reinterpret_cast<const void*>(&kernel)" : outside) + "; }\n}  // namespace lab01\n";
}

Assembly build(const std::string& sub) { return assemble({kSkeleton, "course.cu"}, {sub, "student.cu"}); }
}  // namespace

TEST_CASE("the graded file is the course's skeleton with the submission's region bodies") {
    const Assembly a = build(submission("constexpr int kTile = 32;", "    if (threadIdx.x < n) x[threadIdx.x] *= 2;"));
    REQUIRE(a.refusal == "");
    CHECK(a.notes.empty());
    CHECK(a.source.find("constexpr int kTile = 32;") != std::string::npos);
    CHECK(a.source.find("x[threadIdx.x] *= 2") != std::string::npos);
    CHECK(a.source.find("#line 8 \"student.cu\"") != std::string::npos);  // errors point at the student's lines
    CHECK(a.source.find("#line 9 \"course.cu\"") != std::string::npos);  // and back to the course's
}

TEST_CASE("an edit outside the regions has no effect and is reported") {
    const Assembly a = build(submission("constexpr int kTile = 32;", "    x[0] = 1;", "reinterpret_cast<const void*>(&decoy)"));
    REQUIRE(a.refusal == "");
    CHECK(a.source.find("decoy") == std::string::npos);
    CHECK(a.source.find("reinterpret_cast<const void*>(&kernel)") != std::string::npos);
    REQUIRE(a.notes.size() == 1);
    // The note names the student's file and its line, and says which text is used.
    CHECK(a.notes[0].find("line 11 of your student.cu differs from the course's file") != std::string::npos);
    CHECK(a.notes[0].find("edits outside them have no effect") != std::string::npos);
    CHECK(a.notes[0].find("Yours reads\n  const void* graded_kernel() { return reinterpret_cast<const void*>(&decoy); }") !=
          std::string::npos);
    CHECK(a.notes[0].find("the course's reads\n  const void* graded_kernel() { return reinterpret_cast<const void*>(&kernel); }") !=
          std::string::npos);
    CHECK(a.notes[0].find("course.cu") == std::string::npos);  // the skeleton's path is no file of the student's
}

TEST_CASE("a refused region names the student's file and the line of the file") {
    // The kernel region's body starts at line 8 of the submission; its third line holds the #include.
    const Assembly a = build(submission("constexpr int kTile = 32;", "    x[0] = 1;\n    x[1] = 2;\n#include <cstdio>"));
    CHECK(a.refusal.rfind("student.cu, student region 'kernel', line 10: preprocessor lines", 0) == 0);
    CHECK(a.refusal.find("of the region") == std::string::npos);
    // Checked alone, a region body counts its lines from its first.
    CHECK(check_region_body("int a;\n#define X", RegionScope::Function).rfind("line 2 of the region: ", 0) == 0);
    CHECK(check_region_body("int a;\n#define X", RegionScope::Function, 40).rfind("line 41: ", 0) == 0);
}

TEST_CASE("a region that closes its function is refused") {
    const Assembly a = build(submission("constexpr int kTile = 32;",
                                        "    x[0] = 1;\n}\nvoid cudaEventElapsedTime_fake() {\n    x[0] = 2;"));
    CHECK(a.refusal.find("closes one opened outside the region") != std::string::npos);
    CHECK(a.source.empty());
    // ... and so is one that closes its namespace, or leaves a brace open.
    CHECK(build(submission("} namespace lab01 {", "")).refusal.find("closes one opened outside") != std::string::npos);
    CHECK(build(submission("", "if (n) {")).refusal.find("never closed") != std::string::npos);
}

TEST_CASE("region bodies hold code only: no preprocessor, no tricks that reach outside") {
    auto function_region = [](const std::string& body) { return check_region_body(body, RegionScope::Function); };
    auto namespace_region = [](const std::string& body) { return check_region_body(body, RegionScope::Namespace); };
    CHECK(function_region("#include <cstdio>").find("preprocessor") != std::string::npos);
    CHECK(function_region("  #define fail(...)").find("preprocessor") != std::string::npos);
    CHECK(function_region("%:define X 1").find("preprocessor") != std::string::npos);
    CHECK(function_region("_Pragma(\"x\")").find("_Pragma") != std::string::npos);
    CHECK(function_region("x[0] = 1; %>").find("digraph") != std::string::npos);
    CHECK(function_region("int a = 1; \\\n}").find("backslash") != std::string::npos);
    // Splices and line ends the compiler sees and a lexer might not: a backslash before spaces or a tab at a
    // line's end (in code, in a comment), a CR alone (GCC ends a line there, a // comment included), and a
    // backslash anywhere outside a literal.
    CHECK(function_region("unsigned long long t = 0;\n    as\\ \nm volatile(\"\" : \"=l\"(t));")
              .find("backslash followed by spaces") != std::string::npos);
    CHECK(function_region("/\\\t\n* // */ int x = 0;").find("backslash followed by spaces") != std::string::npos);
    CHECK(function_region("// harmless comment \\ \nint x = 0;").find("backslash followed by spaces") != std::string::npos);
    CHECK(function_region("int t = 0; // harmless\r    asm volatile(\"\");\n").find("carriage return") != std::string::npos);
    CHECK(function_region("int \\u0061 = 0;").find("backslash is allowed only inside") != std::string::npos);
    // A backslash before a CR LF or a NUL and a LF ends a `//` comment's line with a splice for GCC, so the
    // next line's `/*` is the comment's and what follows is code; refused in every context, literals too.
    CHECK(function_region("// note \\\r\n/*\nasm volatile(\"\");\n// */\n").find("may not end with a backslash") !=
          std::string::npos);
    CHECK(function_region(std::string("// note \\") + '\0' + "\n/*\nasm volatile(\"\");\n// */\n")
              .find("control character (byte 0x00)") != std::string::npos);
    CHECK(function_region("/* closed here *\\\n/ asm volatile(\"\"); /* */").find("may not end with a backslash") !=
          std::string::npos);
    CHECK(function_region("const char* s = \"a\\\nb\";").find("may not end with a backslash") != std::string::npos);
    CHECK(function_region("int a = 1;\x01").find("control character (byte 0x01)") != std::string::npos);
    // '$' and UTF-8 letters are identifier characters to GCC (1'$ is one number, a UTF-8 letter before R"
    // starts no raw string): a region holds them only in comments and literals.
    CHECK(function_region("int a = 1'$'; (void)'/*';").find("a number may hold only") != std::string::npos);
    CHECK(function_region("int $x = 0;").find("'$'") != std::string::npos);
    CHECK(function_region("auto s = \xce\xbbR\"(\"; // )\";").find("outside ASCII") != std::string::npos);
    CHECK(function_region("const char* s = \"\xce\xbb\"; // \xce\xbb in a comment") == "");
    // Reserved names are the compiler's and the libraries', many of them macros the rules cannot see into;
    // CUDA's qualifiers and its __functions are a region's to use.
    CHECK(function_region("[ _GLIBCXX_END_NAMESPACE_VERSION [likely]] int x;").find("_GLIBCXX_END_NAMESPACE_VERSION is reserved") !=
          std::string::npos);
    CHECK(namespace_region("__BEGIN_DECLS int f(); __END_DECLS").find("__BEGIN_DECLS is reserved") != std::string::npos);
    CHECK(function_region("_CCCL_PP_RBRACE() int g() { _CCCL_PP_LBRACE()").find("is reserved") != std::string::npos);
    CHECK(namespace_region("__annotate__(symver(\"x\")) int h();").find("__annotate__ is reserved") != std::string::npos);
    CHECK(namespace_region("__global__ void __launch_bounds__(256) k(float* __restrict__ p) { __shared__ float t[32]; "
                           "t[threadIdx.x] = __ldg(p); __syncthreads(); p[0] = __shfl_down_sync(0xffffffffu, t[0], 1); }") == "");
    CHECK(function_region("int a = 1;\f\tint b = 2;\r\n") == "");
    CHECK(function_region("const char* s = \"a\\\\b\\n\"; char c = '\\\\'; // a \\ in a comment\r\nint y = 0;\r\n") == "");
    CHECK(function_region("/* never closed").find("never closed") != std::string::npos);
    CHECK(function_region("const char* s = \"}").find("never closed") != std::string::npos);
    CHECK(namespace_region("extern \"C\" int cudaEventElapsedTime(float*, void*, void*) { return 0; }")
              .find("extern \"C\"") != std::string::npos);
    CHECK(namespace_region("asm(\".globl exit\");").find("asm") != std::string::npos);
    // A timer shared by every SM, in device code: it tells back-to-back launches (a timed batch) apart.
    CHECK(function_region("auto t = cuda::std::chrono::system_clock::now();").find("chrono is not allowed") !=
          std::string::npos);
    CHECK(function_region("auto t = cuda::ptx::get_sreg_globaltimer();").find("get_sreg_globaltimer is not allowed") !=
          std::string::npos);
    CHECK(function_region("long long t = clock64(); unsigned c = clock();") == "");  // an SM's own clock stays
    // What real kernels need stays allowed.
    CHECK(function_region("#pragma unroll\nfor (int i = 0; i < 4; ++i) x[i] = 0;") == "");
    CHECK(function_region("    #pragma unroll 4\n") == "");
    CHECK(function_region("const char* s = \"} { #\"; char c = '}'; // } in a comment\n/* { */") == "");
    CHECK(function_region("auto f = [&](int i) { return x[i]; }; int big = 1'000'000;") == "");
    CHECK(function_region("const char* r = R\"raw(} #define )raw\";") == "");
    CHECK(function_region("const char16_t* a = uR\"(})\"; auto b = u8R\"x(#)x\"; auto c = LR\"(\")\";") == "");
    // A raw string stays on its line, as every literal: a line-by-line reading would take what follows its
    // line break for code (lab01_raw_string_hides_asm_incbin: `R"x(` at a line's end, `)x"; asm...` next).
    CHECK(function_region("const char* note = R\"x(\n)x\"; int k = 0;").find("spans lines") != std::string::npos);
    CHECK(function_region("const char* note = R\"x\n(a)x\";").find("raw string") != std::string::npos);
    // Only the standard's prefixes start a raw string. After a literal, an identifier is its suffix: the
    // compiler reads ""_R"(" as ""_R and then "(", so what follows is code, and judged as code.
    CHECK(function_region("int k = \"\"_R\"(\"; asm(\"trap;\"); //)\";").find("asm") != std::string::npos);
    // A literal's suffix is no macro (the user-defined literals of a student's own units: 16_KiB), except one
    // starting with two underscores, which GCC reads as a macro when it names one.
    CHECK(namespace_region("constexpr unsigned long long operator\"\"_KiB(unsigned long long k) { return k << 10; }\n"
                           "static_assert(16_KiB == 16384, \"units\");") == "");
    CHECK(function_region("const char* s = \"%\"__KiB;").find("__KiB is reserved") != std::string::npos);
    CHECK(function_region("int _KiB = 0;").find("_KiB is reserved") != std::string::npos);
    // The builtins that reach the callers' stack or leave a function past its return; those that compute stay.
    CHECK(function_region("void** f = (void**)__builtin_frame_address(0);").find("__builtin_frame_address") !=
          std::string::npos);
    CHECK(function_region("if (n == 0) __builtin_trap();").find("__builtin_trap is not allowed") != std::string::npos);
    CHECK(function_region("void* b[5]; if (__builtin_setjmp(b)) return;").find("__builtin_setjmp") != std::string::npos);
    CHECK(function_region("if (__builtin_expect(n > 0, 1)) k = __builtin_popcount(n) + __builtin_clz(n);") == "");
    CHECK(function_region("int k = \"\"uR\"(\"; asm(\"trap;\"); //)\";").find("asm") != std::string::npos);
    CHECK(function_region("int k = xR\"(\"; asm(\"trap;\"); //)\";").find("asm") != std::string::npos);
    // A comment opened on a #pragma unroll line runs on past it for the compiler.
    CHECK(function_region("unsigned long long t = 0;\n#pragma unroll /*\n\" */ \"/*\"\nasm volatile(\"nop;\"); //*/\n")
              .find("preprocessor") != std::string::npos);
    CHECK(function_region("#pragma unroll 4 /* four */\n").find("preprocessor") != std::string::npos);
    CHECK(function_region("#pragma unroll // every k of the tile\nfor (int k = 0; k < 8; ++k) x[k] = 0;") == "");
    // (Refused for the backslash before the line end first, which any context refuses now.)
    CHECK(function_region("#pragma unroll // joined \\\nasm(\"trap;\");").find("may not end with a backslash") !=
          std::string::npos);
    // An attribute's brackets with a comment between them are still an attribute.
    CHECK(namespace_region("[/**/[gnu::constructor]/**/] void early() {}").find("[[ ]]") != std::string::npos);
    // The harmless attributes, as the preprocessed-source scan reads them: the standard's, GCC's that inline,
    // warn, align or describe, plain or in GCC's namespace, with arguments or without; nothing else.
    CHECK(namespace_region("[[noreturn]] void stop(); [[gnu::always_inline, nodiscard(\"why\")]] inline int f() { return 1; }\n"
                           "[[deprecated(\"old ]] one\"), gnu::cold]] int g(); [[gnu::aligned(alignof(int))]] int h;\n"
                           "[[likely, ]] int i; [[]] int j;") == "");
    CHECK(namespace_region("[[gnu::section(\".x\")]] int k;").find("[[section]] is not allowed") != std::string::npos);
    CHECK(namespace_region("[[gnu::constructor]] void early();").find("[[constructor]] is not allowed") != std::string::npos);
    CHECK(namespace_region("[[clang::noinline]] int f();").find("[[clang::]] is not allowed") != std::string::npos);
    CHECK(namespace_region("[[using gnu: used]] int f();").find("[[using]] is not allowed") != std::string::npos);
    CHECK(namespace_region("[[gnu::used gnu::section(\".x\")]] int f();").find("not allowed") != std::string::npos);
    CHECK(namespace_region("[[gnu::target_clones(\"avx2\",\"default\")]] int f();").find("not allowed") != std::string::npos);
    // __func__ is the standard's name of the function, no macro; a #pragma unroll count may be any constant
    // expression of the usual operators.
    CHECK(function_region("throw std::invalid_argument(std::string(__func__) + \": n < 1\");") == "");
    CHECK(namespace_region("[[gnu::aligned(sizeof(R\"x(\")x\"))]] static int pad = 0;").find("prefixed or raw string") !=
          std::string::npos);
    CHECK(function_region("#pragma unroll (K < 5 ? 4 : 2)\nfor (int k = 0; k < 8; ++k) x += k;") == "");
    CHECK(function_region("#pragma unroll kShape.tm\nfor (int k = 0; k < 8; ++k) x += k;") == "");
    CHECK(function_region("#pragma unroll sizeof...(Words)\nfor (int k = 0; k < 8; ++k) x += k;") == "");
    CHECK(function_region("#pragma unroll kCounts[2]\nfor (int k = 0; k < 8; ++k) x += k;") == "");
    CHECK(function_region("#pragma unroll \"4\"\n").find("preprocessor") != std::string::npos);
    CHECK(function_region("#pragma unroll {4}\n").find("preprocessor") != std::string::npos);
    // CUDA's qualifiers spelled as host_defines.h spells them.
    CHECK(namespace_region("__device__ __inline_hint__ unsigned twice(unsigned x) { return 2u * x; }") == "");
    CHECK(namespace_region("__global__ void __local_maxnreg__(64) k() {}") == "");
    CHECK(namespace_region("[ //\n[gnu::used]] int x;").find("[[ ]]") != std::string::npos);
    CHECK(function_region("int v[4] = {}; v[ /* first */ 0] = 1;") == "");
    // extern followed by a raw or prefixed string names a linkage too.
    CHECK(namespace_region("extern R\"(C)\" long long now() { return 0; }").find("extern \"C\"") != std::string::npos);
    CHECK(namespace_region("extern u8\"C\" long long now() { return 0; }").find("extern \"C\"") != std::string::npos);
    CHECK(namespace_region("__device__ float twice(float v) { return 2 * v; }\nconstexpr int kN = 4;") == "");
}

TEST_CASE("a missing region is refused; the known-wrong variants take missing ones from the solution") {
    const std::string without = "// BEGIN STUDENT REGION kernel\n    x[0] = 3;\n// END STUDENT REGION\n";
    CHECK(build(without).refusal.find("'constants' is missing") != std::string::npos);
    const SourceText fill{submission("constexpr int kTile = 64;", "    x[0] = 1;"), "solution.cu"};
    const Assembly a = assemble({kSkeleton, "course.cu"}, {without, "variant.cu"}, &fill);
    REQUIRE(a.refusal == "");
    CHECK(a.source.find("kTile = 64") != std::string::npos);
    CHECK(a.source.find("x[0] = 3;") != std::string::npos);
}

TEST_CASE("the course's own starters and solutions assemble") {
    for (const char* lab : {"01-sum-reduction/sum_reduction.cu", "02-max-reduce/max_reduce.cu", "03-tiled-matmul/tiled_matmul.cu",
                            "04-padded-transpose/transpose.cu", "05-halo-convolution/halo_convolution.cu",
                            "06-bank-conflicts/stride_detector.cu"}) {
        auto read = [](const std::string& p) {
            std::ifstream in(p);
            REQUIRE_MESSAGE(in, "cannot read " << p);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        const std::string starter = read(std::string(COURSE_SOURCE_DIR) + "/labs/" + lab);
        CHECK_MESSAGE(assemble({starter, "s"}, {starter, "s"}).refusal == "", lab);
#ifdef COURSE_HAS_SOLUTIONS  // not in a student release
        const std::string solution = read(std::string(COURSE_SOURCE_DIR) + "/solutions/" + lab);
        const Assembly a = assemble({starter, "s"}, {solution, "sol"});
        CHECK_MESSAGE(a.refusal == "", lab << ": " << a.refusal);
        CHECK_MESSAGE(a.notes.empty(), lab);
#endif
    }
}

// --- The audit ----------------------------------------------------------------------------------

TEST_CASE("the audit lets a lab launch, use device memory, compute and throw") {
    const std::vector<ObjectSymbol> syms = {
        {"_ZN5lab0110sum_reduceEPKfPfm", 'T'},
        {"_ZN5lab0113graded_kernelEv", 'T'},
        {"_Z48__device_stub__ZN5lab0116block_sum_kernelEPKfPfmPKfPfm", 'T'},
        {"_ZN6course9CudaErrorD2Ev", 'W'},
        {"_ZNSt6vectorIfSaIfEE17_M_realloc_insertIJRKfEEEvN9__gnu_cxx17__normal_iteratorIPfS1_EEDpOT_", 'W'},
        {"_ZTVN6course9CudaErrorE", 'V'},
        {"__cudaLaunchKernel", 'U'},   {"cudaMemsetAsync", 'U'},   {"cudaDeviceGetAttribute", 'U'},
        {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", 'U'},     {"sqrtf", 'U'},
        {"__cxa_guard_acquire", 'U'},  {"_ZdlPvm", 'U'},           {"_ZTISt13runtime_error", 'U'},
        {"printf", 'U'},               {"atexit", 'U'},
    };
    const AuditFinding f = audit_symbols("01", syms, {});
    CHECK_MESSAGE(f.message == "", f.message);
}

TEST_CASE("the audit refuses forbidden imports, each with its reason") {
    auto refused = [](const std::string& name) { return audit_symbols("01", {{name, 'U'}}, {}).message; };
    CHECK(refused("fopen").find("file or stream I/O") != std::string::npos);
    CHECK(refused("write").find("file or stream I/O") != std::string::npos);
    CHECK(refused("_exit").find("ends the process") != std::string::npos);
    CHECK(refused("dlopen").find("loads libraries") != std::string::npos);
    CHECK(refused("getenv").find("environment") != std::string::npos);
    CHECK(refused("cudaStreamCreateWithFlags").find("streams, graphs or events") != std::string::npos);
    CHECK(refused("cudaEventElapsedTime").find("timer") != std::string::npos);
    CHECK(refused("clock_gettime").find("timer") != std::string::npos);
    CHECK(refused("cublasSgemm_v2").find("library call") != std::string::npos);
    CHECK(refused("fork").find("process") != std::string::npos);
    CHECK(refused("cudaSetDevice").find("changes the GPU") != std::string::npos);
    CHECK(refused("cudaDeviceSetLimit").find("changes the GPU") != std::string::npos);
    CHECK(refused("cudaDeviceGetLimit") == "");  // reading a setting is a device query
    // The grader's own baselines are not for a lab to call, nor course helpers its lab does not allow.
    CHECK(refused("_ZN5lab018baseline9naive_sumEPKfPfm").find("not for a lab to call") != std::string::npos);
    CHECK(refused("_ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE") != "");
    // ... unless the lab's rubric allows it (Lab 06's detector times with the course's timer).
    CHECK(audit_symbols("06", {{"_ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE", 'U'}},
                        {R"(course::time_interleaved\(.*\))"})
              .message == "");
}

TEST_CASE("the audit finds the device functions that read the GPU's global timer in the PTX") {
    const std::string ptx = ".version 8.8\n.target sm_90\n"
                            ".func  (.param .b64 func_retval0) _ZN5lab016helperEv()\n{\n\tmov.u64 %rd1, %globaltimer;\n}\n"
                            ".visible .entry _ZN5lab011kEPy(\n.param .u64 p\n)\n{\n\tmov.u32 %r1, %globaltimer_lo;\n"
                            "\tmov.u32 %r2, %globaltimer_hi;\n}\n"
                            ".visible .entry _ZN5lab015quietEPy(\n)\n{\n\tmov.u64 %rd2, %clock64;\n}\n";
    const auto readers = device_timer_readers(ptx);
    REQUIRE(readers.size() == 2);
    CHECK(readers[0] == "lab01::helper()");
    CHECK(readers[1] == "lab01::k(unsigned long long*)");
    CHECK(device_timer_readers(".visible .entry _ZN5lab011kEv()\n{\n\tmov.u64 %rd1, %clock64;\n}\n").empty());
    // An SM's own clock is read apart (a lab's rubric may allow it): clock64(), clock() and its high half.
    const auto clocks = device_clock_readers(ptx + ".visible .entry _ZN5lab014lowsEv()\n{\n\tmov.u32 %r1, %clock;\n}\n"
                                                   ".visible .entry _ZN5lab012hiEv()\n{\n\tmov.u32 %r1, %clock_hi;\n}\n");
    REQUIRE(clocks.size() == 3);
    CHECK(clocks[0] == "lab01::quiet(unsigned long long*)");
    CHECK(clocks[1] == "lab01::lows()");
    CHECK(clocks[2] == "lab01::hi()");
    // The performance-monitor counters and the driver's environment registers, read apart; predicates (%p1)
    // and the clock are not them.
    const auto counters = device_counter_readers(
        ptx + ".visible .entry _ZN5lab012pmEv()\n{\n\tmov.u32 %r1, %pm0;\n\tsetp.ne.s32 %p1, %r1, 0;\n}\n"
              ".visible .entry _ZN5lab013envEv()\n{\n\tmov.u32 %r1, %envreg3;\n}\n"
              ".visible .entry _ZN5lab014wideEv()\n{\n\tmov.u64 %rd1, %pm7_64;\n}\n");
    REQUIRE(counters.size() == 3);
    CHECK(counters[0] == "lab01::pm()");
    CHECK(counters[1] == "lab01::env()");
    CHECK(counters[2] == "lab01::wide()");
    // Behind a block comment that holds a `//`: ptxas reads the timer, so the whole line is looked at.
    const auto hidden = device_timer_readers(".visible .entry _ZN5lab011kEPy(\n)\n{\n\t/* // */ mov.u64 %rd1, %globaltimer;\n}\n");
    REQUIRE(hidden.size() == 1);
    CHECK(hidden[0] == "lab01::k(unsigned long long*)");
}

TEST_CASE("the audit finds the device functions that use an instruction a lab refuses") {
    const std::string ptx = ".version 8.8\n.target sm_90\n"
                            ".visible .entry _ZN5lab041kEPf(\n.param .u64 p\n)\n{\n"
                            "\tshfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1;\n"
                            "\t@%p2 shfl.sync.idx.b32 %r3|%p3, %r1, 0, 31, -1;\n}\n"
                            ".func _ZN5lab046helperEv()\n{\n\t{ movmatrix.sync.aligned.m8n8.trans.b16 %r4, %r5; }\n}\n"
                            ".visible .entry _ZN5lab045quietEPf(\n)\n{\n\tld.shared.f32 %f1, [%rd1];\n"
                            "\tmov.u32 %r9, %myshfl;\n\tcall.uni _Z4shflv;\n}\n";
    const auto uses = device_instruction_users(ptx, {"shfl", "movmatrix"});
    REQUIRE(uses.size() == 2);  // each function and instruction once; names that hold "shfl" are not it
    CHECK(uses[0] == std::pair<std::string, std::string>{"shfl", "lab04::k(float*)"});
    CHECK(uses[1] == std::pair<std::string, std::string>{"movmatrix", "lab04::helper()"});
    // An opcode's part is not the opcode: wmma.mma is wmma, not mma; wgmma is not mma.
    const std::string tensor = ".visible .entry _ZN5lab031kEv()\n{\n\twmma.mma.sync.aligned.row.row.m16n16k8.f32.tf32 {%f1}, {%r1}, {%r2}, {%f2};\n"
                               "\twgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%f1}, %rd1, %rd2, 1, 1, 1;\n}\n";
    const auto t = device_instruction_users(tensor, {"mma", "wmma", "wgmma"});
    REQUIRE(t.size() == 2);
    CHECK(t[0].first == "wmma");
    CHECK(t[1].first == "wgmma");
    CHECK(device_instruction_users(tensor, {"mma"}).empty());
    CHECK(device_instruction_users(".visible .entry _ZN5lab031kEv()\n{\n\tmma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%r1}, {%r2}, {%r3}, {%r4};\n}\n",
                                   {"mma"}).size() == 1);
    // The source's path in a .file directive is the student's choice of folder, no instruction; a quote
    // that a comment opens hides nothing.
    CHECK(device_instruction_users(".version 8.8\n\t.file\t1 \"/home/s/shfl.v1/labs/04-padded-transpose/transpose.cu\"\n"
                                   "\t.file\t2 \"/home/s/vote.x/t.cu\", 1700000000, 1234\n"
                                   ".visible .entry _ZN5lab041kEv()\n{\n\tret;\n}\n",
                                   {"shfl", "vote"}).empty());
    CHECK(device_instruction_users(".visible .entry _ZN5lab041kEv()\n{\n\t// \"\n\tshfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;\n"
                                   "\t// \"\n}\n", {"shfl"}).size() == 1);
    CHECK(device_instruction_users("\t.file\t1 \"a.cu\" shfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;\n", {"shfl"}).size() == 1);
    // Behind a block comment that holds a `//`, as for the timer: the whole line is looked at.
    CHECK(device_instruction_users(".visible .entry _ZN5lab041kEv()\n{\n\t/* // */ shfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;\n}\n",
                                   {"shfl"}).size() == 1);
}

TEST_CASE("the PTX scan reads what ptxas reads: no comment, space or header-like text hides an instruction") {
    const auto uses = [](const std::string& body) {
        return device_instruction_users(".visible .entry _ZN5lab041kEv()\n{\n" + body + "\n}\n", {"shfl"}).size();
    };
    CHECK(uses("\tshfl .sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;") == 1);    // a space before the modifiers
    CHECK(uses("\tshfl/**/.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;") == 1);  // a comment between
    CHECK(uses("\tshfl\n\t.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;") == 1);   // a line end between
    CHECK(uses("\t// /*\n\tshfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1;\n\t// */") == 1);
    CHECK(uses("\tld.shared.f32 %f1, [%rd1];") == 0);
    // A statement whose comment says ".func" or ".entry" is not a function's header: it is read.
    const std::string hidden = ".visible .entry _ZN5lab041kEv()\n{\n\tshfl.sync.bfly.b32 %r2|%p1, %r1, 1, 31, -1; // .func \n"
                               "\tmov.u64 %rd1, %globaltimer; // .entry \n}\n";
    const auto shuffles = device_instruction_users(hidden, {"shfl"});
    REQUIRE(shuffles.size() == 1);
    CHECK(shuffles[0].second == "lab04::k()");
    const auto timers = device_timer_readers(hidden);
    REQUIRE(timers.size() == 1);
    CHECK(timers[0] == "lab04::k()");
}

TEST_CASE("the preprocessed source shows inline assembly and pragmas on the lab's own lines, however spelled") {
    const std::string ii = "# 1 \"/course/labs/04-padded-transpose/transpose.cu\"\n"
                           "# 1 \"/usr/include/x86_64-linux-gnu/sys/cdefs.h\" 1 3 4\n"
                           "extern int f() noexcept (true) __asm (\"f\");\n"  // a header's: not the lab's
                           "# 12 \"/course/labs/04-padded-transpose/transpose.cu\" 2\n"
                           "#pragma unroll\n"
                           "    const char* s = \"asm\"; char c = 'a';\n"  // literals: not code
                           "# 40 \"/home/student/transpose.cu\"\n"
                           "    float got;\n"
                           "    __asm__ volatile(\"shfl .sync.bfly.b32 %0, %1, %2, 31, -1;\" : \"=f\"(got) : \"f\"(x), \"r\"(b));\n"
                           "#pragma GCC optimize(\"O0\")\n"
                           "#pragma nounroll\n";
    const auto found = region_code_in_preprocessed(ii);
    REQUIRE(found.size() == 2);
    CHECK(found[0] == "inline assembly (__asm__) (/home/student/transpose.cu, line 41)");
    CHECK(found[1].find("a preprocessor line: #pragma GCC optimize") == 0);
    CHECK(found[1].find("(/home/student/transpose.cu, line 42)") != std::string::npos);
    // #line markers too, and asm spelled plainly.
    CHECK(region_code_in_preprocessed("#line 7 \"/home/s/sum_reduction.cu\"\n  asm volatile(\"exit;\");\n").size() == 1);
    CHECK(region_code_in_preprocessed("# 1 \"/course/common/device.cuh\"\n  asm volatile(\"exit;\");\n").empty());
    // A file name with a quote, escaped in the marker (a folder named q"x): still the lab's file.
    CHECK(region_code_in_preprocessed("# 7 \"/home/q\\\"x/sum_reduction.cu\"\n  asm volatile(\"exit;\");\n").size() == 1);
    // A marker that cannot be read ends the reading with a refusal (fail closed).
    const auto unread = region_code_in_preprocessed("# 7 \"/home/q\n  asm volatile(\"exit;\");\n");
    REQUIRE(unread.size() == 1);
    CHECK(unread[0].find("a line marker the audit cannot read") == 0);
    // extern with any string literal names a linkage, however prefixed or escaped.
    for (const char* spelling : {"extern \"C\" int f();", "extern u8\"C\" int f();", "extern \"\\x43\" int f();",
                                 "extern R\"(C)\" int f();", "extern L\"C\" int f();"})
        CHECK(region_code_in_preprocessed(std::string("# 3 \"/home/s/t.cu\"\n") + spelling + "\n") ==
              std::vector<std::string>{"extern \"C\" (/home/s/t.cu, line 3)"});
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\nextern int g; extern template class X<int>;\n").empty());
    // Literals end where the compiler ends them: a digit separator opens no character literal, and a raw
    // string holds quotes; neither hides what follows.
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  int n = 1'000; __asm__ volatile(\"exit;\"); int m = 2'0;\n").size() == 1);
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  auto s = R\"(\")\"; __asm__ volatile(\"exit;\");\n").size() == 1);
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  auto s = R\"x(asm)\")x\"; auto t = u8\"__asm__\"; float f = 1.5e+3f;\n").empty());
    // A raw string over several lines is the literal's to its end, and code after it: its closing quote
    // opens no string, and a '#' inside it starts no line marker.
    const auto spanning = region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  const char* note = R\"x(\n"
                                                      "# 1 \"/usr/include/stdio.h\"\n  asm\n"
                                                      ")x\"; __asm__ volatile(\".incbin \\\"secret\\\"\");\n");
    REQUIRE(spanning.size() == 1);
    CHECK(spanning[0] == "inline assembly (__asm__) (/home/s/t.cu, line 6)");
    // A name right after a literal is its suffix (a user-defined literal ""R), not a raw string's prefix:
    // ""R"(" is ""R then the string "(", so the lines after it are code, read as such.
    const auto suffixed = region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  auto n = sizeof(\"\"R\"(\");\n"
                                                      "  [ [gnu::section(\".x\\n.incbin \\\"s\\\"\")]] static char h[1];\n"
                                                      "  const char* d = \")\";\n");
    REQUIRE(suffixed.size() == 1);
    CHECK(suffixed[0] == "an attribute (section) (/home/s/t.cu, line 4)");
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  auto s = u8\"a\"_x; auto t = R\"(\n  asm\n)\";\n").empty());
    // A standard attribute whose brackets an empty macro kept apart for the region rules, and an extern "C"
    // block a macro opened (glibc's __BEGIN_DECLS); gnu::used and the CUDA qualifiers' expansions are fine.
    const auto split = region_code_in_preprocessed(
        "# 80 \"/home/s/sum_reduction.cu\"\n    [ [gnu::section(\".x\\n.incbin \\\"s\\\"\"), gnu::used]] static const char h[1] = {0};\n"
        "extern \"C\" {\n__attribute__((global)) void k(); __attribute__((symver(\"f@V\"))) int g();\n");
    REQUIRE(split.size() == 3);
    CHECK(split[0] == "an attribute (section) (/home/s/sum_reduction.cu, line 80)");
    CHECK(split[1] == "extern \"C\" (/home/s/sum_reduction.cu, line 81)");
    CHECK(split[2] == "an attribute (symver) (/home/s/sum_reduction.cu, line 82)");
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  [[likely]] if (x) y[ z[0] ] = 1;\n").empty());
    // A raw or prefixed literal in an attribute's list is refused: read as plain strings, its quotes would
    // have hidden what follows (an attribute whose string the assembler takes as its source).
    const auto raw_in_list = region_code_in_preprocessed(
        "# 3 \"/home/s/t.cu\"\n[[gnu::aligned(sizeof(R\"x(\")x\"))]] static int pad = 0; [ [gnu::section(\".x\")]] static char h[1];\n");
    REQUIRE(!raw_in_list.empty());
    CHECK(raw_in_list[0] == "a prefixed or raw string literal in an attribute's list (R) (/home/s/t.cu, line 3)");
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n[[deprecated(u8\"old\")]] int f();\n").size() == 1);
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n[[deprecated(\"old ]] (\"), nodiscard(\"why\")]] int f();\n").empty());
    // A qualified name in an attribute's arguments is an expression's, not an attribute namespace.
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n__attribute__((global)) __attribute__((launch_bounds(Launch::kThreads, 2))) "
                                      "void k(); __attribute__((aligned(alignof(std::uint32_t)))) int a;\n"
                                      "[[gnu::aligned(alignof(std::uint64_t))]] int b;\n").empty());
    const auto spaced = region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n[[clang::noinline, gnu::used]] int f();\n");
    REQUIRE(spaced.size() == 1);
    CHECK(spaced[0] == "an attribute's namespace clang (/home/s/t.cu, line 3)");
    // Attributes: what __global__, __shared__ and the like expand to is fine; one that runs code before
    // main is not, however it was spelled.
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n__attribute__((global)) void k(float* section) {\n"
                                      "  static __attribute__((shared)) float tile[32][33];\n").empty());
    const auto ctor = region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n__attribute__((__constructor__)) void early() {}\n");
    REQUIRE(ctor.size() == 1);
    CHECK(ctor[0] == "an attribute (constructor) (/home/s/t.cu, line 3)");
    // A bracket in a string argument ends neither list (the names after it are read), and a name in a
    // string is no attribute.
    const auto quoted = region_code_in_preprocessed(
        "# 3 \"/home/s/t.cu\"\n__attribute__((deprecated(\")))\"), constructor)) void a() {}\n"
        "[[deprecated(\"]]\"), gnu::destructor]] void b() {}\n");
    REQUIRE(quoted.size() == 2);
    CHECK(quoted[0] == "an attribute (constructor) (/home/s/t.cu, line 3)");
    CHECK(quoted[1] == "an attribute (destructor) (/home/s/t.cu, line 4)");
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n__attribute__((deprecated(\"no constructor\"), aligned(1'024))) int "
                                      "v; [[deprecated(\"section\")]] int w;\n")
              .empty());
}

TEST_CASE("an attribute on a lab's lines is one of the harmless ones, in GCC's namespace or none") {
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n__attribute__((global)) __attribute__((launch_bounds(256, 2))) void k();\n"
                                      "__attribute__((aligned(sizeof(float)), noinline)) int v; [[nodiscard, gnu::always_inline]] "
                                      "int f(); [[using gnu: hot, cold]] void g(); [[maybe_unused]] int w;\n")
              .empty());
    const auto found = region_code_in_preprocessed(
        "# 3 \"/home/s/t.cu\"\n[[gnu::target(\"default\")]] int f();\n[[clang::noinline]] int g();\n"
        "__attribute__((noinit)) int x;\n[[using gnu: section(\".x\")]] int y;\n__attribute__((aligned(8), simd)) int h();\n");
    REQUIRE(found.size() == 5);
    CHECK(found[0] == "an attribute (target) (/home/s/t.cu, line 3)");
    CHECK(found[1] == "an attribute's namespace clang (/home/s/t.cu, line 4)");
    CHECK(found[2] == "an attribute (noinit) (/home/s/t.cu, line 5)");
    CHECK(found[3] == "an attribute (section) (/home/s/t.cu, line 6)");
    CHECK(found[4] == "an attribute (simd) (/home/s/t.cu, line 7)");
}

TEST_CASE("an attribute list is read on over the lines the preprocessor spread it on") {
    // GCC spreads a macro's expansion over lines, with line markers, when its arguments come from the lab's
    // file: the arguments of launch_bounds stand on a line of their own. None of that is refused.
    CHECK(region_code_in_preprocessed("# 32 \"/home/s/t.cu\" 3 4\n__attribute__((global))\n# 32 \"/home/s/t.cu\"\n void\n"
                                      "# 32 \"/home/s/t.cu\" 3 4\n __attribute__((launch_bounds(\n# 32 \"/home/s/t.cu\"\n"
                                      " kThreads, kMinBlocks\n# 32 \"/home/s/t.cu\" 3 4\n )))\n\n# 33 \"/home/s/t.cu\"\n k(int n) {\n")
              .empty());
    // An empty macro between the brackets in the source (`[` then `CUDARTAPI [gnu::constructor]]`) leaves
    // them on two lines, blank lines and line markers perhaps between them; a list the line does not
    // close goes on on the next ones; so does one whose keyword ends a line.
    const auto split = region_code_in_preprocessed(
        "# 3 \"/home/s/t.cu\"\n[\n\n# 5 \"/home/s/t.cu\"\n [gnu::constructor]] void early() {}\n"
        "[  [maybe_unused,\n    gnu::used, gnu::section(\".x\")]] static const char c[1] = {1};\n"
        "__attribute__((noinline,\n constructor)) void f();\n__attribute__\n ((destructor)) void g();\n");
    REQUIRE(split.size() == 4);
    CHECK(split[0] == "an attribute (constructor) (/home/s/t.cu, line 5)");
    CHECK(split[1] == "an attribute (section) (/home/s/t.cu, line 7)");
    CHECK(split[2] == "an attribute (constructor) (/home/s/t.cu, line 9)");
    CHECK(split[3] == "an attribute (destructor) (/home/s/t.cu, line 11)");
    // A subscript that goes on on the next line is no attribute; nor is a '[' in a literal at a line's end.
    CHECK(region_code_in_preprocessed("# 3 \"/home/s/t.cu\"\n  x = tile[\n      idx[i]];\n  char c = '[';\n  [[likely]] y = 1;\n"
                                      "  auto s = \"[\";\n[[nodiscard]] int g();\n  z = a[\n  b];\n")
              .empty());
}

TEST_CASE("a host function that only calls exit is a __device__ function's stand-in only where nothing refers to it") {
    HostFunction stub{"_ZN5lab0116atomic_max_floatEPff", {"sub", "movl", "mov", "call"}, {"exit"}};
    HostFunction quit{"_ZN5lab014quitEv", {"sub", "movl", "mov", "call"}, {"exit"}};
    const std::string symbols =
        "0000000000000210 g     F .text\t0000000000000020 _ZN5lab0116atomic_max_floatEPff\n"
        "0000000000000240 g     F .text\t0000000000000020 _ZN5lab014quitEv\n"
        "0000000000000000 l     F .text.unlikely\t0000000000000010 _ZN5lab0110sum_reduceEPKfPfm.cold\n";
    // quit's address in data (a function pointer), the stand-in only in the unwind table.
    const std::string relocations =
        "RELOCATION RECORDS FOR [.text]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000221 R_X86_64_PLT32    exit-0x0000000000000004\n"
        "RELOCATION RECORDS FOR [.data.rel.local]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000000 R_X86_64_64       .text+0x0000000000000240\n"
        "RELOCATION RECORDS FOR [.eh_frame]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000020 R_X86_64_PC32     .text+0x0000000000000210\n";
    const std::set<std::string> referenced = referenced_functions(symbols, relocations);
    CHECK(referenced == std::set<std::string>{"exit", "_ZN5lab014quitEv"});
    CHECK(is_device_function_stub(stub, "01", &referenced));
    CHECK_FALSE(is_device_function_stub(quit, "01", &referenced));
    CHECK(is_device_function_stub(quit, "01"));  // by its shape alone, without the object's references
    const std::vector<ObjectSymbol> syms = {{"exit", 'U'}};
    CHECK(audit_symbols("01", syms, {}, {stub}, {}, &referenced).message == "");
    CHECK(audit_symbols("01", syms, {}, {stub, quit}, {}, &referenced).message.find("calls exit") != std::string::npos);
    // A stand-in-shaped function that another one calls, or whose address it loads, in their own section,
    // where no relocation is needed (`call 210 <...>`, `lea 0x0(%rip),%rax # 210 <...>`): the lab's own.
    stub.section = quit.section = ".text";
    HostFunction caller{"_ZN5lab0110sum_reduceEPKfPfm", {"lea", "call", "ret"}, {}, {"_ZN5lab014quitEv"},
                        {"_ZN5lab014quitEv"}, ".text"};
    const std::set<std::string> only_exit{"exit"};
    CHECK(audit_symbols("01", syms, {}, {stub, quit}, {}, &only_exit).message == "");
    CHECK(audit_symbols("01", syms, {}, {stub, quit, caller}, {}, &only_exit).message.find("calls exit") !=
          std::string::npos);
    HostFunction self{"_ZN5lab0116atomic_max_floatEPff", {"sub", "movl", "mov", "call"}, {"exit"},
                      {"_ZN5lab0116atomic_max_floatEPff"}, {"_ZN5lab0116atomic_max_floatEPff"}, ".text"};
    CHECK(audit_symbols("01", syms, {}, {self}, {}, &only_exit).message == "");  // its own name: no reference
    // objdump names a place of another section after a symbol of this one (every section of an object
    // starts at 0): nvcc's registration function's own jump, in .text.startup, is no reference.
    HostFunction registration{"_ZL24__sti____cudaRegisterAllv", {"jmp"}, {}, {"_ZN5lab014quitEv"},
                              {"_ZN5lab014quitEv"}, ".text.startup"};
    CHECK(audit_symbols("01", syms, {}, {stub, quit, registration}, {}, &only_exit).message == "");
    // parse_objdump keeps each function's section and the starts its instructions name.
    const auto parsed = parse_objdump("Disassembly of section .text:\n\n"
                                      "0000000000000210 <_ZN5lab014quitEv>:\n 210:\tcall   215 <_ZN5lab014quitEv+0x5>\n"
                                      "0000000000000230 <_ZN5lab014mainEv>:\n 230:\tcall   210 <_ZN5lab014quitEv>\n"
                                      "Disassembly of section .text.startup:\n\n"
                                      "0000000000000000 <_GLOBAL__sub_I_x>:\n   0:\tjmp    214 <_ZN5lab014quitEv+0x4>\n");
    REQUIRE(parsed.size() == 4);  // the lines before the first function's label count as one without a name
    CHECK(parsed[1].section == ".text");
    CHECK(parsed[1].starts.empty());
    CHECK(parsed[2].starts == std::vector<std::string>{"_ZN5lab014quitEv"});
    CHECK(parsed[3].section == ".text.startup");
    CHECK(parsed[3].starts.empty());
}

TEST_CASE("the audit refuses a definition outside the lab's namespace") {
    auto refused = [](const std::string& name, char type) { return audit_symbols("01", {{name, type}}, {}).message; };
    CHECK(refused("cudaEventElapsedTime", 'T').find("defines cudaEventElapsedTime, outside namespace lab01") == 0);
    CHECK(refused("_ZN5lab018baseline9naive_sumEPKfPfm", 'T') == "");  // inside lab01: the linker's duplicate check
    CHECK(refused("_ZN5lab028max_reduceEPKfPfm", 'T').find("outside namespace lab01") != std::string::npos);
    CHECK(refused("_ZN7grading4failENS_7FailureERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEES8_", 'T') != "");
    CHECK(refused("_ZN6course12uniform_at_fEmm", 'T') != "");  // strong: would replace the course's own
    CHECK(refused("_ZN6course9CudaErrorD2Ev", 'W') == "");    // weak copy of inline code: replaces nothing
    CHECK(refused("_Z20__device_stub__ZN5lab026kernelEv", 'T') != "");  // another lab's kernel stub
    // CUB compiled into the lab's namespace (CUB_WRAPPED_NAMESPACE): its device-wide algorithms under the lab's name.
    CHECK(refused("_ZN5lab013cub6detail6reduce18DeviceReduceKernelEv", 'W').find("CUB or Thrust") != std::string::npos);
}

TEST_CASE("the audit lets a lab catch by type: a catch clause's table entry judged as the typeinfo it points to") {
    auto finding = [](const std::string& name, char type) { return audit_symbols("06", {{name, type}}, {}).message; };
    // catch (const std::invalid_argument&), catch (const std::exception&): weak pointers to standard typeinfo.
    CHECK(finding("DW.ref._ZTISt16invalid_argument", 'V') == "");
    CHECK(finding("DW.ref._ZTISt9exception", 'V') == "");
    CHECK(finding("DW.ref.__gxx_personality_v0", 'V') == "");
    // The lab's own exception type, also one in an anonymous namespace of its file.
    CHECK(finding("DW.ref._ZTIN5lab066TooFewE", 'V') == "");
    CHECK(finding("DW.ref._ZTIN5lab0612_GLOBAL__N_16TooFewE", 'V') == "");
    // std::stable_sort's buffer: operator new(std::size_t, const std::nothrow_t&) and the std::nothrow object.
    CHECK(finding("_ZSt7nothrow", 'U') == "");
    CHECK(finding("_ZnwmRKSt9nothrow_t", 'U') == "");
    // Still refused: another lab's or a forbidden library's type, a strong copy, any other table entry,
    // and std::terminate.
    CHECK(finding("DW.ref._ZTIN5lab028BadInputE", 'V').find("outside namespace lab06") != std::string::npos);
    CHECK(finding("DW.ref._ZTIN6thrust6system12system_errorE", 'V').find("outside namespace lab06") != std::string::npos);
    CHECK(finding("DW.ref._ZTISt16invalid_argument", 'D') != "");
    CHECK(finding("DW.ref.fopen", 'V') != "");
    CHECK(finding("_ZTIN6thrust6system12system_errorE", 'U') != "");
    CHECK(finding("_ZSt9terminatev", 'U').find("ends the process") != std::string::npos);
    CHECK(finding("cudaMallocManaged", 'U').find("managed or host memory") != std::string::npos);
    CHECK(finding("sincos", 'U') == "");
    CHECK(finding("__dynamic_cast", 'U') == "");
    CHECK(finding("cudaMemset3D", 'U') == "");
    CHECK(finding("cudaMemcpy3DAsync", 'U') == "");
    CHECK(finding("_ZTIi", 'U') == "");    // throw 13; catch (int)
    CHECK(finding("_ZTIPKc", 'U') == "");  // throw "fourteen"; catch (const char*)
    CHECK(finding("DW.ref._ZTIi", 'V') == "");
    CHECK(finding("_ZTIN4cub9TempStoreE", 'U') != "");  // not a fundamental type
    CHECK(finding("__assert_fail", 'U') != "");  // assert is compiled out (NDEBUG): never the lab's call
    // The special names of the lab's own entities are the lab's: thunks of its classes' functions (two
    // bases, a virtual base, a covariant return), construction vtables, a reference's temporary.
    CHECK(finding("_ZThn16_N5lab0611BadBinCountD1Ev", 'W') == "");
    CHECK(finding("_ZTv0_n24_N5lab067BadSizeD0Ev", 'W') == "");
    CHECK(finding("_ZTch0_h16_N5lab064Node5cloneEv", 'W') == "");
    CHECK(finding("_ZTCN5lab067BadSizeE0_NS_5ErrorE", 'V') == "");
    CHECK(finding("_ZGRN5lab068kLabNameB5cxx11E_", 'V') == "");
    // ... and the standard library's its own (a weak copy), but a strong thunk or one of another lab is not.
    CHECK(finding("_ZThn16_NSt17_Nested_exceptionISt13runtime_errorED1Ev", 'W') == "");
    CHECK(finding("_ZThn16_NSt13runtime_errorD1Ev", 'T') != "");
    CHECK(finding("_ZThn16_N5lab0211BadBinCountD1Ev", 'W').find("outside namespace lab06") != std::string::npos);
    CHECK(finding("_ZTh", 'W') != "");  // not a name
    // Throwing and catching CUDA's own types (catch (cudaError_t)): their typeinfo, weak.
    CHECK(finding("_ZTI9cudaError", 'V') == "");
    CHECK(finding("DW.ref._ZTI9cudaError", 'V') == "");
    CHECK(finding("_ZTS9cudaError", 'V') == "");
    CHECK(finding("_ZTI9cudaError", 'D') != "");  // strong
    CHECK(finding("_ZTI7Grading", 'V') != "");    // not CUDA's
    // Ordinary library calls found refused by a round of correct code written in other styles.
    for (const char* name : {"llrint", "nexttowardf", "scalbln", "cudaMemcpyPeerAsync", "sprintf", "__sprintf_chk",
                             "strncat", "__strncat_chk", "__strcpy_chk", "__memcpy_chk", "strcpy", "strchr", "__popcountdi2", "__ctzdi2", "_ZSt17current_exceptionv",
                             "_ZSt17rethrow_exceptionNSt15__exception_ptr13exception_ptrE",
                             "_ZNSt15__exception_ptr13exception_ptr10_M_releaseEv", "__cxa_init_primary_exception"})
        CHECK_MESSAGE(finding(name, 'U') == "", name);
}

TEST_CASE("exit is allowed only in nvcc's stand-ins for __device__ functions; raw system calls never") {
    const std::vector<ObjectSymbol> syms = {{"exit", 'U'}};
    const HostFunction stub{"_ZN5lab0216atomic_max_floatEPff", {"sub", "movl", "mov", "call", "data16"}, {"exit"}};
    CHECK(audit_symbols("02", syms, {}, {stub}).message == "");
    const HostFunction launcher{"_ZN5lab0210max_reduceEPKfPfm", {"push", "mov", "call", "call"}, {"cudaMemsetAsync", "exit"}};
    CHECK(audit_symbols("02", syms, {}, {stub, launcher}).message.find("ends the process") != std::string::npos);
    const HostFunction raw{"_ZN5lab0210max_reduceEPKfPfm", {"mov", "syscall"}, {}};
    CHECK(audit_symbols("02", {}, {}, {raw}).message.find("raw system call") != std::string::npos);
    const auto parsed = parse_objdump("0000000000000210 <_ZN5lab0216atomic_max_floatEPff>:\n 210:\tsub    $0x18,%rsp\n"
                                      " 220:\tcall   225 <x>\n\t\t\t221: R_X86_64_PLT32\texit-0x4\n"
                                      "0000000000000230 <_ZN5lab021fEv>:\n 230:\tsyscall\n 232:\tint    $0x80\n");
    REQUIRE(parsed.size() == 2);
    CHECK(parsed[0].relocations == std::vector<std::string>{"exit"});
    CHECK(parsed[1].mnemonics == std::vector<std::string>{"syscall", "int80"});
    // What an instruction refers to in its own section, named by the disassembler without a relocation.
    const auto o0 = parse_objdump("0000000000000362 <_ZL24__sti____cudaRegisterAllv>:\n"
                                  " 374:\tcall   379 <_ZL24__sti____cudaRegisterAllv+0x17>\n"
                                  "\t\t\t375: R_X86_64_PLT32\t__cudaRegisterFatBinary-0x4\n"
                                  " 380:\tlea    -0x87(%rip),%rax        # 300 <_ZL31__nv_cudaEntityRegisterCallbackPPv>\n"
                                  " 3b9:\tnop\n");
    REQUIRE(o0.size() == 1);
    CHECK(o0[0].targets == std::vector<std::string>{"_ZL24__sti____cudaRegisterAllv",
                                                     "_ZL31__nv_cudaEntityRegisterCallbackPPv"});
    CHECK(o0[0].relocations == std::vector<std::string>{"__cudaRegisterFatBinary"});
    CHECK(parse_nm_posix("exit U\n_ZN5lab011fEv T 0 10\n").size() == 2);
}

TEST_CASE("only nvcc's own registration code may refer to the glue that registers device code") {
    const HostFunction sti{"_ZL24__sti____cudaRegisterAllv", {"push", "call", "call", "call", "call"},
                           {"__cudaRegisterFatBinary", "__cudaRegisterFunction", "__cudaRegisterFatBinaryEnd", "atexit"}};
    const HostFunction unregister{"_ZL26__cudaUnregisterBinaryUtilv", {"mov", "jmp"}, {"__cudaUnregisterFatBinary"}};
    const HostFunction launcher{"_ZN5lab0110sum_reduceEPKfPfm", {"push", "call", "call"},
                                {"cudaMemsetAsync", "__cudaPushCallConfiguration", "__cudaLaunchKernel"}};
    const std::string nvcc_only =
        "RELOCATION RECORDS FOR [.text]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000008 R_X86_64_PLT32    __cudaUnregisterFatBinary-0x0000000000000004\n"
        "0000000000000040 R_X86_64_PLT32    __cudaPushCallConfiguration-0x0000000000000004\n"
        "RELOCATION RECORDS FOR [.text.startup]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000009 R_X86_64_PLT32    __cudaRegisterFatBinary-0x0000000000000004\n"
        "000000000000003d R_X86_64_PLT32    __cudaRegisterFunction-0x0000000000000004\n"
        "00000000000001e5 R_X86_64_PLT32    __cudaRegisterFatBinaryEnd-0x0000000000000004\n"
        "00000000000001f2 R_X86_64_PLT32    atexit-0x0000000000000004\n"
        "RELOCATION RECORDS FOR [.eh_frame]:\nOFFSET           TYPE              VALUE\n"
        "0000000000000020 R_X86_64_PC32     __cudaRegisterFatBinary\n";
    CHECK(registration_outside_nvcc({sti, unregister, launcher}, nvcc_only).empty());
    // At -O0 nvcc's callbacks are functions of their own, the registration function refers to the callback
    // by its address in the same section (no relocation: the disassembler names it), and nothing refers to
    // __nv_init_managed_rt_with_module.
    const HostFunction callback{"_ZL31__nv_cudaEntityRegisterCallbackPPv", {"call"}, {"__cudaRegisterFunction"}};
    const HostFunction managed{"_ZL32__nv_init_managed_rt_with_modulePPv", {"call"}, {"__cudaInitModule"}};
    HostFunction sti_o0{"_ZL24__sti____cudaRegisterAllv", {"lea", "call", "lea", "call", "call", "lea", "call"},
                        {"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "atexit"},
                        {"_ZL24__sti____cudaRegisterAllv", "_ZL31__nv_cudaEntityRegisterCallbackPPv",
                         "_ZL26__cudaUnregisterBinaryUtilv"}};
    CHECK(registration_outside_nvcc({sti_o0, callback, managed, unregister}, "").empty());
    // Were GCC to keep the callback a function of its own at -O3, in .text, the registration function in
    // .text.startup would call it through a relocation against the section: the symbol table names it.
    const auto cross = parse_objdump("0000000000000000 <_ZL24__sti____cudaRegisterAllv>:\n"
                                     "   8:\tcall   d <_ZL24__sti____cudaRegisterAllv+0xd>\n"
                                     "\t\t\t9: R_X86_64_PLT32\t__cudaRegisterFatBinary-0x4\n"
                                     "  14:\tcall   19 <_ZL24__sti____cudaRegisterAllv+0x19>\n"
                                     "\t\t\t15: R_X86_64_PLT32\t.text+0x2c\n");
    REQUIRE(cross.size() == 1);
    CHECK(cross[0].targets == std::vector<std::string>{"_ZL24__sti____cudaRegisterAllv",
                                                        "_ZL24__sti____cudaRegisterAllv", ".text+0x30"});
    const std::string table =
        "0000000000000030 l     F .text\t0000000000000040 _ZL31__nv_cudaEntityRegisterCallbackPPv\n"
        "0000000000000000 l     F .text.startup\t0000000000000061 _ZL24__sti____cudaRegisterAllv\n";
    CHECK(registration_outside_nvcc({cross[0], callback}, "", table).empty());
    CHECK(registration_outside_nvcc({cross[0], callback}, "", "").size() == 1);  // unknown place: not called
    // The names alone are not trusted (assembly can name a function of its own as one the compiler inlined):
    // a callback the registration function does not call,
    const auto uncalled = registration_outside_nvcc({sti, callback}, nvcc_only);
    REQUIRE(uncalled.size() == 1);
    CHECK(uncalled[0].find("not called by its registration function) that refers to __cudaRegisterFunction") !=
          std::string::npos);
    // one that does more than its part (registering a fatbinary, calling atexit), called or not,
    HostFunction loading_callback = callback;
    loading_callback.relocations = {"__cudaRegisterFatBinary", "__cudaRegisterFunction", "__cudaRegisterFatBinaryEnd"};
    const auto loads = registration_outside_nvcc({sti_o0, loading_callback}, "");
    REQUIRE(loads.size() == 1);
    CHECK(loads[0].find("which does not call these) that refers to __cudaRegisterFatBinary and "
                        "__cudaRegisterFatBinaryEnd:") != std::string::npos);
    HostFunction exiting = unregister;
    exiting.relocations.push_back("atexit");
    CHECK(registration_outside_nvcc({sti, exiting}, nvcc_only).size() == 1);
    HostFunction managed_loader = managed;
    managed_loader.relocations.push_back("__cudaRegisterFatBinary");
    CHECK(registration_outside_nvcc({sti, managed_loader}, nvcc_only).size() == 1);
    // and no name of nvcc's may be two functions'.
    const auto twice = registration_outside_nvcc({sti_o0, callback, callback}, "");
    REQUIRE(!twice.empty());
    CHECK(twice[0].find("has 2 functions named as nvcc's") != std::string::npos);
    // The launcher registering a fatbinary of its own (lab01_fatbin_via_nvcc_glue), or calling atexit.
    HostFunction loader = launcher;
    loader.relocations.insert(loader.relocations.end(), {"__cudaRegisterFatBinary", "__cudaRegisterFunction", "atexit"});
    const auto found = registration_outside_nvcc({sti, unregister, loader}, nvcc_only);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("(lab01::sum_reduce(float const*, float*, unsigned long)) that refers to "
                        "__cudaRegisterFatBinary, __cudaRegisterFunction and atexit:") != std::string::npos);
    const HostFunction initializer{"_GLOBAL__sub_I__ZN5lab0312tiled_matmulEPKfS1_Pfiii", {"call"}, {"atexit"}};
    const auto at_start = registration_outside_nvcc({sti, initializer}, nvcc_only);
    REQUIRE(at_start.size() == 1);
    CHECK(at_start[0].find("namespace scope, which runs before main()) that refers to atexit") != std::string::npos);
    // A lab function of nvcc's helper's name is inside namespace lab01: not the helper.
    const HostFunction lookalike{"_ZN5lab01L24__sti____cudaRegisterAllEv", {"call"}, {"__cudaRegisterFunction"}};
    CHECK(registration_outside_nvcc({sti, lookalike}, nvcc_only).size() == 1);
    // The glue's address in a table of the lab's data, called through it: more references than the code holds.
    const std::string in_data = nvcc_only +
                                "RELOCATION RECORDS FOR [.data.rel.ro.local]:\nOFFSET           TYPE              VALUE\n"
                                "0000000000000000 R_X86_64_64       __cudaRegisterFatBinary\n";
    const auto data = registration_outside_nvcc({sti, unregister, launcher}, in_data);
    REQUIRE(data.size() == 1);
    CHECK(data[0].find("in its data") != std::string::npos);
}

TEST_CASE("labels made by assembly in code are found; functions, sections and data are not") {
    const std::string disassembly = "\nDisassembly of section .text:\n\n0000000000000000 <_ZN5lab018sum_reduceEPKfmPf>:\n"
                                    "\nDisassembly of section .text.unlikely:\n";
    const std::string table =
        "SYMBOL TABLE:\n"
        "0000000000000000 l    df *ABS*\t0000000000000000 sum_reduction.cudafe1.cpp\n"
        "0000000000000000 l    d  .text\t0000000000000000 .text\n"
        "0000000000000000 l       .nv_fatbin\t0000000000000000 fatbinData\n"
        "0000000000000015 l       .rodata.str1.1\t0000000000000000 .LC4\n"
        "0000000000000000 l     F .text\t000000000000000c _ZL26__cudaUnregisterBinaryUtilv\n"
        "0000000000000010 l     F .text.unlikely\t0000000000000010 _ZN5lab018sum_reduceEPKfmPf.cold\n"
        "0000000000000018 l     O .bss\t0000000000000008 _ZL20__cudaFatCubinHandle\n"
        "0000000000000210 g     F .text\t0000000000000020 _ZN5lab018sum_reduceEPKfmPf\n";
    CHECK(labels_in_code(table, disassembly).empty());
    // A label of inline assembly spelled as nvcc's inlined registration callback, inside a lab function.
    const auto found = labels_in_code(table + "00000000000003b7 l       .text\t0000000000000000 "
                                              "_ZL31__nv_cudaEntityRegisterCallbackPPv\n",
                                      disassembly);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "_ZL31__nv_cudaEntityRegisterCallbackPPv");
    // A label typed as a function by assembly (.type name, @function): no size, or inside another function.
    CHECK(labels_in_code(table + "00000000000003b7 l     F .text\t0000000000000000 _ZL31__nv_cudaEntityRegisterCallbackPPv\n",
                         disassembly)
              .size() == 1);
    CHECK(labels_in_code(table + "0000000000000220 l     F .text\t0000000000000004 _ZL31__nv_cudaEntityRegisterCallbackPPv\n",
                         disassembly)
              .size() == 1);
    // In a code section of its own making, too.
    CHECK(labels_in_code(table + "0000000000000000 l       .mine\t0000000000000000 stamp\n",
                         disassembly + "\nDisassembly of section .mine:\n")
              .size() == 1);
}

// --- The report channel ---------------------------------------------------------------------------

namespace {
RubricLab two_checks() {
    return parse_rubric(json::parse(R"({"labs": [{"id": "01", "dir": "01-x", "title": "X", "checks": [
        {"name": "correct", "points": 3}, {"name": "fast", "points": 2}]}]})"))
        .labs[0];
}
std::vector<json> records(const std::vector<json>& events, const std::string& key = "k") {
    std::vector<json> out;
    for (std::size_t i = 0; i < events.size(); ++i) {
        json j = events[i];
        j["key"] = key;
        j["seq"] = i;
        out.push_back(j);
    }
    return out;
}
json ev(const std::string& e, const std::string& c = "", bool passed = true) {
    json j = {{"event", e}};
    if (!c.empty()) j["check"] = c;
    if (e == "end") j["passed"] = passed, j["class"] = passed ? "pass" : "wrong_result";
    return j;
}
const ProcessOutcome kOk{ProcessOutcome::Kind::Exited, 0, 0, ""};
}  // namespace

TEST_CASE("a faithful record stream is believed") {
    const auto r = merge_lab_report(two_checks(), "student",
                                    records({ev("start", "correct"), ev("end", "correct"), ev("start", "fast"),
                                             ev("end", "fast", false), ev("done")}),
                                    {ProcessOutcome::Kind::Exited, 1, 0, ""}, "k");
    CHECK(r.points() == 3);
    CHECK(r.checks[1].cls == Failure::WrongResult);
}

TEST_CASE("forged, duplicate, missing and unexpected records fail the lab as a grader-integrity failure") {
    const RubricLab lab = two_checks();
    auto integrity = [&](const std::vector<json>& lines, const ProcessOutcome& o = kOk) {
        const auto r = merge_lab_report(lab, "student", lines, o, "k");
        return r.points() == 0 && r.primary_failure() == Failure::GraderIntegrity;
    };
    const std::vector<json> good = {ev("start", "correct"), ev("end", "correct"), ev("start", "fast"), ev("end", "fast"),
                                    ev("done")};
    CHECK_FALSE(integrity(records(good)));
    // Forged: the right shape without the key, or a record inserted with a guessed one.
    CHECK(integrity(records(good, "guess")));
    auto forged = records(good);
    forged.insert(forged.begin() + 4, json{{"event", "end"}, {"check", "fast"}, {"passed", true}, {"key", "k"}, {"seq", 4}});
    CHECK(integrity(forged));
    // Duplicate: a check reported twice.
    CHECK(integrity(records({ev("start", "correct"), ev("end", "correct"), ev("start", "correct"), ev("end", "correct"),
                             ev("start", "fast"), ev("end", "fast"), ev("done")})));
    // Missing: the program exited on its own before reporting every check.
    CHECK(integrity(records({ev("start", "correct"), ev("end", "correct"), ev("done")})));
    CHECK(integrity(records({ev("start", "correct"), ev("end", "correct"), ev("start", "fast"), ev("end", "fast")})));
    // Unexpected: a check the rubric does not have, or out of the rubric's order.
    CHECK(integrity(records({ev("start", "correct"), ev("end", "correct"), ev("start", "bonus"), ev("end", "bonus"),
                             ev("start", "fast"), ev("end", "fast"), ev("done")})));
    CHECK(integrity(records({ev("start", "fast"), ev("end", "fast"), ev("start", "correct"), ev("end", "correct"),
                             ev("done")})));
    // Anything after the last record.
    auto late = records(good);
    late.push_back(json{{"event", "end"}, {"check", "fast"}, {"passed", true}, {"key", "k"}, {"seq", 5}});
    CHECK(integrity(late));
}

TEST_CASE("a run that crashed keeps what it reported; the rest is charged to the crash") {
    const auto r = merge_lab_report(two_checks(), "student", records({ev("start", "correct"), ev("end", "correct"),
                                                                       ev("start", "fast")}),
                                    {ProcessOutcome::Kind::Signaled, 11, 0, ""}, "k");
    CHECK(r.checks[0].passed());
    CHECK(r.checks[1].cls == Failure::Crash);
}

TEST_CASE("the channel reaches the child on its descriptor with the key; the log does not carry records") {
    // A shell stands in for a lab program: it writes one line to the channel and one to stdout.
    const std::string log = std::string(SAMPLE_REPORT_DIR) + "/channel_test.log";
    std::remove(log.c_str());
    std::string got;
    double s = 0;
    const auto o = run_with_timeout({"/bin/sh", "-c", "read k; echo \"$k\" >&3; echo to-stdout; sleep 30 &"}, 20,
                                    log, s, "", &got, "secret-key");
    CHECK(o.kind == ProcessOutcome::Kind::Exited);
    CHECK(o.code == 0);
    CHECK(got == "secret-key\n");
    CHECK(s < 10);  // the background sleep was killed with the group, not waited for
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(text == "to-stdout\n");
}

// A grading slot's next compile may read its own folders (confined_compile): staging a submission removes
// what the slot's last compile of the lab left there, the previous submission's object and nvcc's files,
// and keeps CMake's own files.
TEST_CASE("staging a submission removes the slot's last compile of the lab") {
    const fs::path build = fs::temp_directory_path() / ("stage-test-" + std::to_string(::getpid()));
    fs::remove_all(build);
    RubricLab lab;
    lab.id = "01";
    lab.dir = "01-sum-reduction";
    const std::string target = "lab01_slot1";
    const fs::path objects = build / "autograder" / "labs" / lab.dir / "CMakeFiles" / (target + "_code.dir");
    const fs::path deep = objects / "__" / "graded" / target;
    fs::create_directories(deep);
    const fs::path work = build / "graded" / target;
    fs::create_directories(work / "keep");
    fs::create_directories(work / "tmp");
    for (const fs::path& f : {deep / "sum_reduction.cu.o", deep / "sum_reduction.cu.o.d", objects / "flags.make",
                              work / "keep" / "sum_reduction.cpp4.ii", work / "tmp" / "x.s"})
        std::ofstream(f) << "previous submission\n";
    const fs::path submission = build / "submission";
    fs::create_directories(submission / lab.dir);
    std::ofstream(submission / lab.dir / "sum_reduction.cu") << "// the next submission\n";
    Slot slot;
    slot.number = 1;
    const auto jobs = stage_submission(build.string(), submission, slot, {&lab});
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0].missing.empty());
    CHECK(jobs[0].target == target);
    CHECK_FALSE(fs::exists(deep / "sum_reduction.cu.o"));
    CHECK_FALSE(fs::exists(deep / "sum_reduction.cu.o.d"));
    CHECK_FALSE(fs::exists(work / "keep"));
    CHECK_FALSE(fs::exists(work / "tmp"));
    CHECK(fs::exists(objects / "flags.make"));
    CHECK(fs::exists(build / "grading" / "slots" / "1" / lab.dir / "sum_reduction.cu"));
    fs::remove_all(build);
}

// The audit reads the object's sections: names the compilers make pass, whatever follows their prefix;
// one only assembly or a section attribute names, or code outside .text, is a finding.
TEST_CASE("the audit refuses sections the compilers do not make") {
    const auto row = [](int i, const std::string& name, const std::string& flags) {
        return "  " + std::to_string(i) + " " + name +
               "  00000014  0000000000000000  0000000000000000  00000040  2**2  " + flags + "\n";
    };
    const std::string head = "\nx.o:     file format elf64-x86-64\n\nSections:\nIdx Name  Size  VMA  LMA  File off  Algn  Flags\n";
    std::string ordinary = head;
    int i = 0;
    for (const char* name : {".group", ".rodata.str1.8", ".data.rel.ro._ZTIN6course9CudaErrorE", ".nv_fatbin",
                             ".nvFatBinSegment", ".init_array", ".gcc_except_table._ZN5lab01f", ".eh_frame",
                             ".note.GNU-stack", ".comment", ".bss._ZGVZ4mainE1x", ".tbss", ".debug_line"})
        ordinary += row(i++, name, "CONTENTS, ALLOC, LOAD, DATA");
    ordinary += row(i++, ".text", "CONTENTS, ALLOC, LOAD, READONLY, CODE");
    ordinary += row(i++, ".text._ZN5lab011fEv", "CONTENTS, ALLOC, LOAD, RELOC, READONLY, CODE");
    CHECK(unexpected_sections(ordinary).empty());
    for (const char* name : {".preinit_array", ".ctors", ".init", ".fini_array", ".init_array.00101",
                             ".gnu.warning.exit", ".gnu.lto_main", ".text", ".rodata.", ".data"}) {
        const bool code = std::string(name) != ".preinit_array" && std::string(name) != ".ctors";
        const std::string text = ordinary + row(i, name, code ? "CONTENTS, ALLOC, LOAD, READONLY, CODE" : "CONTENTS, DATA");
        const auto found = unexpected_sections(text);
        const bool expected = std::string(name) != ".text";
        CAPTURE(name);
        CHECK(found.size() == (expected ? 1u : 0u));
        if (!found.empty()) CHECK(found[0].find(name) != std::string::npos);
    }
    const auto stack = unexpected_sections(ordinary + row(i, ".note.GNU-stack", "CONTENTS, READONLY, CODE"));
    REQUIRE(stack.size() == 1);
    CHECK(stack[0].find("has code in its section .note.GNU-stack") != std::string::npos);
}

TEST_CASE("the audit refuses code outside every function and constructors the compilers did not make") {
    // objdump's own lines for nvcc's registration with code appended after its end by assembly
    // (.subsection 1 of .text.startup), listed in .init_array by section and offset.
    const std::string table =
        "0000000000000000 l    d  .text.startup\t0000000000000000 .text.startup\n"
        "0000000000000000 l     F .text.startup\t0000000000000061 _ZL24__sti____cudaRegisterAllv\n"
        "0000000000000010 g     F .text\t0000000000000153 .hidden _ZN5lab0319tiled_matmul_kernelEPKfS1_Pfiii\n"
        "0000000000000000 l     F .text._ZN5lab034hookEv\t0000000000000005 _ZN5lab034hookEv\n";
    const std::string appended =
        "Disassembly of section .text.startup:\n\n0000000000000000 <_ZL24__sti____cudaRegisterAllv>:\n"
        "   0:\tsub    $0x8,%rsp\n  5c:\tjmp    61 <_ZL24__sti____cudaRegisterAllv+0x61>\n"
        "\t\t\t5d: R_X86_64_PLT32\tatexit-0x4\n"
        "  61:\tsub    $0x8,%rsp\n  65:\tcall   6a <_ZL24__sti____cudaRegisterAllv+0x6a>\n"
        "\t\t\t66: R_X86_64_PLT32\t_ZN5lab0311before_mainEv-0x4\n";
    const auto outside = code_outside_functions(table, appended);
    REQUIRE(outside.size() == 1);
    CHECK(outside[0].find(".text.startup+0x61 (sub)") != std::string::npos);
    // Alignment padding between functions is no code; the functions' own instructions are theirs.
    const std::string padded =
        "Disassembly of section .text:\n\n0000000000000000 <x>:\n   0:\tnopl   0x0(%rax)\n   4:\tcs nopw 0x0(%rax,%rax,1)\n"
        "   e:\txchg   %ax,%ax\n\n0000000000000010 <_ZN5lab0319tiled_matmul_kernelEPKfS1_Pfiii>:\n  10:\tpush   %rbp\n"
        " 162:\tret\n";
    CHECK(code_outside_functions(table, padded).empty());
    // A prefix of padding's on any other instruction is that instruction.
    const std::string sled = "Disassembly of section .text.startup:\n\n0000000000000000 <_ZL24__sti____cudaRegisterAllv>:\n"
                             "   0:\tsub    $0x8,%rsp\n  61:\tdata16 cs nopw 0x0(%rax,%rax,1)\n  6c:\tdata16 lea 0x0(%rip),%rax\n";
    const auto sled_found = code_outside_functions(table, sled);
    REQUIRE(sled_found.size() == 1);
    CHECK(sled_found[0].find(".text.startup+0x6c (data16)") != std::string::npos);
    const std::string init = "RELOCATION RECORDS FOR [.init_array]:\nOFFSET           TYPE              VALUE\n"
                             "0000000000000000 R_X86_64_64       .text.startup\n";
    CHECK(unexpected_constructors(table, init).empty());
    const auto after = unexpected_constructors(table, init + "0000000000000008 R_X86_64_64       .text.startup+0x0000000000000061\n");
    REQUIRE(after.size() == 1);
    CHECK(after[0].find("lists .text.startup+0x61 in .init_array") == 0);
    const auto own = unexpected_constructors(
        table, "RELOCATION RECORDS FOR [.fini_array]:\n0000000000000000 R_X86_64_64       _ZN5lab034hookEv\n");
    REQUIRE(own.size() == 1);
    CHECK(own[0].find("lists lab03::hook() in .fini_array") == 0);
    CHECK(unexpected_constructors(
              table + "0000000000000000 l     F .text.startup\t0000000000000020 _GLOBAL__sub_I_tiled_matmul.cu\n",
              "RELOCATION RECORDS FOR [.init_array]:\n0000000000000000 R_X86_64_64       _GLOBAL__sub_I_tiled_matmul.cu\n")
              .empty());
}

TEST_CASE("a macro whose expansion opens or closes braces the source does not show is found") {
    // The compiled source: the course's file, with a student's region named by #line directives.
    const std::string source = "#line 1 \"/c/lab.cu\"\n"                 // 0
                               "namespace lab01 {\n"                        // 1: /c/lab.cu 1
                               "void f() {\n"                               // 2: 2
                               "#line 5 \"/s/lab.cu\"\n"                  // 3
                               "    CLEANUP_PUSH(g); { CLEANUP_POP(0); CLEANUP_POP(0); }\n"  // 4: /s/lab.cu 5
                               "    void escaped() {\n"                     // 5: 6
                               "    }\n"                                    // 6: 7
                               "#line 3 \"/c/lab.cu\"\n"                  // 7
                               "}\n"                                        // 8: /c/lab.cu 3
                               "}  // namespace lab01\n";                   // 9: 4
    // What the preprocessor made of it: glibc's push opens a block that its pop closes.
    const std::string escape = "# 0 \"/b/graded.cu\"\n# 1 \"/c/lab.cu\"\nnamespace lab01 {\nvoid f() {\n"
                               "# 5 \"/s/lab.cu\"\n"
                               "    do { cleanup c(g); { c.run(0); } while (0); c.run(0); } while (0); }\n"
                               "    void escaped() {\n    }\n# 3 \"/c/lab.cu\"\n}\n}\n";
    const auto found = unbalanced_macro_braces(escape, source, "/b/graded.cu");
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("opens or closes braces the source does not show (/s/lab.cu, line 5)") != std::string::npos);
    // Balanced expansions, one spread over the lines of its call, a system header's tokens on a line of
    // their own, comments, literals and a raw string across lines are not.
    const std::string honest_source = "#line 1 \"/c/lab.cu\"\n"
                                      "namespace lab01 {\n"
                                      "void f() {\n"
                                      "    CHECK(g(1, [] {\n"
                                      "        return 2; }()));  /* } */ // {\n"
                                      "    const char* s = \"}\"; char c = '{'; int n = 1'000;\n"
                                      "    auto r = R\"x(\n"
                                      "{{)x\";\n"
                                      "}\n"
                                      "}\n";
    const std::string honest_ii = "# 0 \"/b/graded.cu\"\n# 1 \"/c/lab.cu\"\nnamespace lab01 {\nvoid f() {\n"
                                  "    do { int e = (g(1, [] { return 2; }())); if (e) throw e; } while (0)\n"
                                  "                      ;\n"
                                  "    const char* s = \"}\"; char c = '{'; int n = 1'000;\n"
                                  "    auto r = R\"x(\n{{)x\";\n"
                                  "}\n"
                                  "# 9 \"/c/lab.cu\" 3 4\n"
                                  "__attribute__((global))\n"
                                  "# 9 \"/c/lab.cu\"\n"
                                  "}\n";
    CHECK(unbalanced_macro_braces(honest_ii, honest_source, "/b/graded.cu").empty());
    // A name right after a literal is its suffix (a user-defined literal, ""R), not a raw string's prefix:
    // read as one, the quote after it would have hidden every later line from both counts.
    const std::string suffix_source = "#line 1 \"/c/lab.cu\"\nnamespace lab01 {\nvoid f() {\n"
                                      "#line 5 \"/s/lab.cu\"\n"
                                      "    auto q = \"\"R\"(x\";\n"
                                      "    CLEANUP_POP(0);\n"
                                      "#line 3 \"/c/lab.cu\"\n}\n}\n";
    const std::string suffix_ii = "# 0 \"/b/graded.cu\"\n# 1 \"/c/lab.cu\"\nnamespace lab01 {\nvoid f() {\n"
                                  "# 5 \"/s/lab.cu\"\n"
                                  "    auto q = \"\"R\"(x\";\n"
                                  "    } while (0);\n"
                                  "# 3 \"/c/lab.cu\"\n}\n}\n";
    const auto suffix = unbalanced_macro_braces(suffix_ii, suffix_source, "/b/graded.cu");
    REQUIRE(suffix.size() == 1);
    CHECK(suffix[0].find("(/s/lab.cu, line 6)") != std::string::npos);
    // A line of the lab's file that the source does not have is not compared but refused.
    const auto unknown = unbalanced_macro_braces("# 40 \"/c/lab.cu\"\nint x;\n", honest_source, "/b/graded.cu");
    REQUIRE(unknown.size() == 1);
    CHECK(unknown[0].find("does not have (/c/lab.cu, line 40)") != std::string::npos);
}

TEST_CASE("a course function a lab may call from one function only is refused anywhere else") {
    const std::string timer = "_ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE";
    const std::string callee = "course::time_interleaved\\(.*\\)", caller = "lab06::detect_conflict_ways(";
    HostFunction detect{"_ZN5lab0620detect_conflict_waysERKSt8functionIFvvEERKS0_IFviEEi", {"call"}, {timer}};
    HostFunction cold{"_ZN5lab0620detect_conflict_waysERKSt8functionIFvvEERKS0_IFviEEi.cold", {"call"}, {timer}};
    HostFunction launch{"_ZN5lab0613strided_loadsEiiPf", {"call"}, {timer}};
    HostFunction plain{"_ZN5lab0613conflict_waysEii", {"ret"}, {}};
    CHECK(calls_outside({detect, cold, plain}, "", callee, caller).empty());
    const auto found = calls_outside({detect, launch}, "", callee, caller);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("calls course::time_interleaved(...) from lab06::strided_loads(int, int, float*)") == 0);
    // The detector itself, which only the grader calls: a launcher calling it would time itself through it.
    HostFunction self_timing{"_ZN5lab0613strided_loadsEiiPf", {"call"}, {detect.name}};
    const auto through = calls_outside({detect, self_timing}, "", "lab06::detect_conflict_ways\\(.*\\)", caller);
    REQUIRE(through.size() == 1);
    CHECK(through[0].find("calls lab06::detect_conflict_ways(...) from lab06::strided_loads") == 0);
    // Its address kept in data, where any function could call it through the pointer.
    const auto data = calls_outside({detect}, "RELOCATION RECORDS FOR [.data.rel.local]:\n"
                                              "OFFSET           TYPE              VALUE\n"
                                              "0000000000000000 R_X86_64_64       " + timer + "\n"
                                              "RELOCATION RECORDS FOR [.text]:\n"
                                              "0000000000000010 R_X86_64_PLT32    " + timer + "-0x0000000000000004\n",
                                    callee, caller);
    REQUIRE(data.size() == 1);
    CHECK(data[0].find("keeps the address of") == 0);
}
