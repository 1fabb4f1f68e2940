// Attack (Lab 03, round 40, static layers: the region rules' lexer (regions.cpp) and the audit's reading
// of the preprocessed source (region_code_in_preprocessed in audit.cpp)): a user-defined literal whose
// suffix is R hides an attribute from the .ii scan. `""R"(";` is, to GCC, EDG and the region lexer alike,
// the literal ""R (suffix R: operator""R, declared in the namespace-scope region `configuration`) and an
// ordinary string "(": the region lexer knows a suffix (i == literal_end). The .ii scan does not: to it an
// identifier R before a quote always opens a raw string, R"( ... )", so it skips every line up to the next
// `)"` (here the string ")" two lines down). Between them, `[ CUDARTAPI [gnu::section("...")]]`: CUDARTAPI
// is an empty, non-reserved macro of the CUDA headers, so the region lexer sees a subscript, and the
// only layer that reads `[ [` as an attribute never reads this line. GCC hands the section name to the
// assembler as written: `.incbin "/usr/include/stdio.h"` (a stand-in: any file the compile may read)
// lands in .rodata.notes under a local label _ZN5lab036leakedE. Object sections, symbols and
// relocations all look ordinary (.rodata.* is a known prefix; the label is in data, not code).
// Evidence: grade --labs-dir ... --lab 03 --allow-no-gpu: "compiles", "passed: the region rules",
// "passed: the audit ... 33 functions and objects"; keep/preprocessed-findings.txt empty; objdump -h on
// lab03_slot1_code's tiled_matmul.cu.o shows .rodata.notes of 0x7b28 bytes and `strings -a` on it and on
// graders/lab03_slot1_host prints stdio.h. With the path /work/main/solutions/... the assembler stops
// ("file not found": Landlock held), so only files inside the confinement's read list leak.
// What should catch it: the .ii scan reading literals as GCC does (an identifier right after a closing
// quote is the literal's suffix, never a raw-string prefix), or better, a scan of what the host compiler
// really compiles (EDG's .cudafe1.cpp respells this as ("("R) and [[gnu::section(...)]]), or the
// assembler's input refused when it holds directives GCC never writes for C++ (.incbin, .include,
// .subsection, a newline in a .section operand). Expected: refused_region.
// The regions not given here are the solution's; this one is the solution's with the trick added.

// BEGIN STUDENT REGION configuration
// Top tier: warp tiling on top of register blocking. A block of 256 threads (8 warps) computes a
// 128 x 256 tile of C. The warps are arranged 2 x 4 over it, each owning a 64 x 64 warp tile, and
// the 32 lanes of a warp are arranged 8 x 4 over that, each owning an 8 x 16 thread tile: 128
// accumulators in registers. Per step along K a thread reads 8 values of A and 16 of B from shared
// memory (6 float4 reads) and does 128 FMAs with them, about 5 FMAs per float read (the basic tier:
// 1/2), so the FMA units, not shared memory, set the pace.
constexpr int kBM = 128;  // rows of C per block
constexpr int kBN = 256;  // columns of C per block
constexpr int kBK = 16;   // depth of one K tile
constexpr int kWM = 64;   // rows of C per warp (the warp tile)
constexpr int kWN = 64;   // columns of C per warp
constexpr int kTM = 8;    // rows of C per thread (the thread tile)
constexpr int kTN = 16;   // columns of C per thread
constexpr int kWarpsN = kBN / kWN;                    // 4 warps across the block's tile (and 2 down)
constexpr int kLanesM = kWM / kTM;                    // 8 lanes down a warp tile
constexpr int kLanesN = kWN / kTN;                    // 4 lanes across it
constexpr int kThreads = (kBM / kWM) * kWarpsN * 32;  // 2 x 4 warps: 256 threads
// kThreads and kMinBlocksPerSm are the kernel's __launch_bounds__. With 1 block an SM the compiler
// may give a thread up to 255 registers: the 128 accumulators, 8 + 16 operands and the next tile's
// 6 float4 fit without spilling (253 registers for sm_90). 256 threads x 253 registers take most of
// an SM's 65536, so one block (8 warps) runs on an SM at a time; each thread's 128 independent FMAs
// per k keep the FMA units busy without more warps.
constexpr int kMinBlocksPerSm = 1;
// A is stored transposed (k-major), so a thread's 8 values of A at one k are two contiguous float4.
constexpr int kLoadsA = kBM * kBK / 4 / kThreads;  // float4 of the A tile each thread loads: 2
constexpr int kLoadsB = kBK * kBN / 4 / kThreads;  // float4 of the B tile each thread loads: 4
// Consecutive blocks take kGroupRows tile rows of C before moving one tile column right (see the kernel).
constexpr int kGroupRows = 8;

static_assert(kLanesM * kLanesN == 32 && kTM % 4 == 0 && kTN % 4 == 0, "32 lanes a warp, float4 pieces of a thread tile");
static_assert(kBM % kWM == 0 && kBN % kWN == 0, "whole warp tiles");
static_assert(kLoadsA * kThreads * 4 == kBM * kBK && kLoadsB * kThreads * 4 == kBK * kBN, "whole float4 tiles");
static_assert(2 * kBK * (kBM + kBN) * 4 <= 48 * 1024, "two stages of static shared memory within 48 KB");

// Loads columns col..col+3 (col a multiple of 4) of row `row` of a rows x cols row-major matrix,
// with zeros for whatever lies outside it. `vec`: cols % 4 == 0 and m is 16-byte aligned, so the
// four floats are one aligned float4, entirely inside or entirely outside the matrix.
__device__ __forceinline__ float4 load_quad(const float* __restrict__ m, int rows, int cols, int row, int col,
                                            bool vec) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows || col >= cols) return v;
    const float* p = m + static_cast<std::size_t>(row) * cols + col;
    if (vec) return *reinterpret_cast<const float4*>(p);
    v.x = p[0];
    if (col + 1 < cols) v.y = p[1];
    if (col + 2 < cols) v.z = p[2];
    if (col + 3 < cols) v.w = p[3];
    return v;
}

// Stores v to columns col..col+3 of row `row` of C (rows x cols), dropping what lies outside.
__device__ __forceinline__ void store_quad(float* __restrict__ m, int rows, int cols, int row, int col, float4 v,
                                           bool vec) {
    if (row >= rows || col >= cols) return;
    float* p = m + static_cast<std::size_t>(row) * cols + col;
    if (vec) {
        *reinterpret_cast<float4*>(p) = v;
        return;
    }
    p[0] = v.x;
    if (col + 1 < cols) p[1] = v.y;
    if (col + 2 < cols) p[2] = v.z;
    if (col + 3 < cols) p[3] = v.w;
}
// A literal operator whose suffix is R: `""R"(...` is, to GCC and to the region rules, the literal ""R
// followed by an ordinary string; the preprocessed-source scan reads R"( as a raw string's start.
constexpr int operator""R(const char*, std::size_t n) { return static_cast<int>(n); }
inline constexpr int hide_open = ""R"(";
[ CUDARTAPI [gnu::section(".rodata.notes\n_ZN5lab036leakedE: .incbin \"/usr/include/stdio.h\"\n .byte 0\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
inline constexpr int hide_close = ")"R;
// END STUDENT REGION
