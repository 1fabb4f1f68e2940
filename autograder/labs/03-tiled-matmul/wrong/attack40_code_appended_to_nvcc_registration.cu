// Attack (Lab 03, round 40, static layers: the .ii scan (region_code_in_preprocessed) and the audit's
// rules on code (labels_in_code, registration_outside_nvcc in audit.cpp)): the raw-string confusion of
// attack40_udl_suffix_hides_incbin (`""R"(` read by the .ii scan as a raw string, by GCC as the literal
// ""R and a string "(") hides `[ CUDARTAPI [gnu::section("...")]]`, whose name is assembler source:
//   .section .text.startup,"ax",@progbits / .subsection 1 / .Lrun_first: sub $8,%rsp; call
//   lab03::before_main(); lea lab03::at_exit(),%rdi; call atexit@PLT; add $8,%rsp; ret /
//   .section .init_array / .quad .Lrun_first
// `.subsection 1` puts the code after all of .text.startup, whose only function is nvcc's
// _ZL24__sti____cudaRegisterAllv (size 0x61). The code has no symbol (a .L label), so labels_in_code sees
// nothing; objdump -d lists it under the last symbol before it, so parse_objdump gives its relocations
// (atexit, the lab's functions) to nvcc's own registration function, and registration_outside_nvcc lets
// them pass ("only nvcc's own code may call atexit" / register device code). The .init_array entry is
// .text.startup+0x61: code before main() that no attribute, initializer or symbol shows. The same
// placement would carry calls to __cudaRegisterFatBinary/__cudaRegisterFunction (attack12's fatbinary
// with %globaltimer PTX), all attributed to nvcc.
// Evidence: grade ... --lab 03 --allow-no-gpu: "compiles", "passed: the region rules", "passed: the
// audit ... 34 functions and objects"; objdump -dr -j .text.startup on the object shows the code at
// 0x61..0x7a under <_ZL24__sti____cudaRegisterAllv> with R_X86_64_PLT32 atexit; objdump -r -j .init_array
// shows .text.startup+0x61. Linked with `int main(){puts("main() starts");}` and -lcudart_static it prints
// "lab03: ran before main()", "main() starts", "lab03: ran at exit, registered with atexit".
// What should catch it: (1) the .ii scan lexing literals as GCC does (suffix after a closing quote) or
// scanning EDG's .cudafe1.cpp; (2) in the audit, every byte of every code section must lie inside some
// function symbol's [start, start+size) (here 0x61..0x7b lies past the sti function's end), and every
// .init_array/.fini_array entry must be the start of a compiler-made function (_GLOBAL__sub_I_*, nvcc's
// sti); (3) reject assembler input with directives GCC never emits for C++ (.subsection, .incbin, a
// section operand holding a newline). Expected: refused_region (or forbidden_symbol from the audit).
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
void before_main() { printf("lab03: ran before main()\n"); }
void at_exit() { printf("lab03: ran at exit, registered with atexit\n"); }
inline constexpr int hide_open = ""R"(";
[ CUDARTAPI [gnu::section(".rodata.notes\n .section .text.startup,\"ax\",@progbits\n .subsection 1\n.Lrun_first:\n sub $8, %rsp\n call _ZN5lab0311before_mainEv\n lea _ZN5lab037at_exitEv(%rip), %rdi\n call atexit@PLT\n add $8, %rsp\n ret\n .section .init_array,\"aw\"\n .align 8\n .quad .Lrun_first\n .section .rodata.notes"), gnu::used]] static const char hold[1] = {0};
inline constexpr int hide_close = ")"R;
// END STUDENT REGION
