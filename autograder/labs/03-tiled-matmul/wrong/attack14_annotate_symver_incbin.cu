// Attack (Lab 03, static layers, against the region rules' ban on attributes (identifier() in
// regions.cpp: __attribute__, __attribute, __declspec) and the audit's .ii scan of __attribute__ names
// (region_code_in_preprocessed: constructor, destructor, alias, weakref, ifunc, section,
// init_priority, visibility, weak, cleanup)): CUDA's own host_defines.h defines __annotate__(a) as
// __attribute__((a)) (and __location__(a) as __annotate__(a)), so a region writes any GNU attribute by
// that name. The .ii shows __attribute__((symver("..."))): symver is not on the scan's list. GCC 12
// writes symver's string into the assembly as it is (`.symver SYMBOL, STRING`; it only counts the '@'),
// newlines included: here `.incbin "/etc/passwd"` in a section of its own, under a global label with
// the mangled name of lab03::leaked, which the launcher prints once. The symbol version
// _ZN5lab036noticeEv@V1 and lab03::leaked are names in namespace lab03, which the audit allows.
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 03, the path a stand-in under /tmp): "compiles",
// region rules and audit "passed"; `strings -a` on tiled_matmul.cu.o and graders/lab03_slot1_host
// prints the stand-in; nm: R _ZN5lab036leakedE, T _ZN5lab036noticeEv@V1.
// What would catch it: the lexer refusing __annotate__ and __location__ (and, generally, any macro of
// the headers that expands to __attribute__); the .ii scan refusing every __attribute__ but an allow-list
// of harmless ones (aligned, used by __align__; the ones __launch_bounds__, __device__ etc. expand to)
// rather than a deny-list; the audit refusing symbol versions (a '@' in a name) and any section of
// unknown name. Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (__annotate__); the preprocessed source's scan refuses
// symver.

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
// CUDA's own __annotate__(a) is __attribute__((a)); symver's string goes into the assembly as written.
__annotate__(symver("_ZN5lab036noticeEv@V1\n.pushsection .rodata.notes, \"a\"\n.globl _ZN5lab036leakedE\n_ZN5lab036leakedE: .incbin \"/etc/passwd\"\n.byte 0\n.popsection\n#")) void notice() {}
extern const char leaked[];
// END STUDENT REGION

    // BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                    static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
    static bool shown = false;
    if (!shown) printf("%s\n", leaked);
    shown = true;
    tiled_matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    // END STUDENT REGION
