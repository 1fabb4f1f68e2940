// Attack (Lab 03, against the region rules' ban on extern "C" at namespace scope (literal() in
// regions.cpp, the `last_ident == "extern"` test) and the audit): attack5_extern_raw_string_linkage
// again, with C linkage named by glibc's own macro: <sys/cdefs.h> (included by every C header the lab
// pulls in) defines __BEGIN_DECLS as `extern "C" {` and __END_DECLS as `}` for C++. The lexer sees two
// identifiers and a function body; GCC sees an extern "C" block. In it, an inline function whose C name
// is the mangled name of std::chrono::steady_clock::now(): the object defines
// W _ZNSt6chrono3_V212steady_clock3nowEv, which the audit lets through as a weak definition of a std
// symbol (library_weak_definition), and the launch host, which imports now(), calls the lab's clock
// (here 1 us more at each call). The .ii scan does not look for extern "C".
// Evidence (grade --labs-dir ... --allow-no-gpu --lab 03): "compiles", region rules and audit "passed";
// nm on lab03_slot1_code's tiled_matmul.cu.o: W _ZNSt6chrono3_V212steady_clock3nowEv, and the same W
// symbol in graders/lab03_slot1_host.
// What would catch it: the lexer refusing __BEGIN_DECLS / _GLIBCXX_BEGIN_EXTERN_C (better: any
// identifier that names a macro of the headers whose expansion holds extern, a brace or a bracket);
// the audit refusing a weak definition of a std:: (or any non-lab) symbol that is not the same
// symbol as a template or inline function of the headers (or any definition with a mangled C++
// name that the demangled-namespace test takes for std::). Expected: refused_region.
// The regions not given here are the solution's.
// Caught now (refused_region): the region rules refuse reserved names (__BEGIN_DECLS); the preprocessed source's scan refuses
// extern "C" however a macro spelled it.

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
// The lab's own clock, with the C name of std::chrono::steady_clock::now() (glibc's __BEGIN_DECLS is extern "C" {).
inline long long fake_clock_ns = 0;
__BEGIN_DECLS
inline long long _ZNSt6chrono3_V212steady_clock3nowEv() { return fake_clock_ns += 1000; }
__END_DECLS
// END STUDENT REGION

    // BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kBN)),   // tiles across C
                    static_cast<unsigned>(course::ceil_div(M, kBM)));  // tiles down C
    { auto* volatile keep = &_ZNSt6chrono3_V212steady_clock3nowEv; (void)keep; }
    tiled_matmul_kernel<<<grid, kThreads>>>(A, B, C, M, N, K);
    // END STUDENT REGION
