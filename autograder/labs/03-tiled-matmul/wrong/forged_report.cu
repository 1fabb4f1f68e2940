// Cheat, Lab 03: the whole record stream, forged before the checks start. A student who read the
// runner knows that the checks send JSON records through fd 3, each with the run's key (from the
// environment variable COURSE_REPORT_KEY, which main() reads and removes) and a sequence number:
// a start and an end for each rubric check, then "done". The configuration region is at namespace
// scope, so it can hold a variable whose initializer runs before main(): it reads the key with
// getenv, writes a start and a passed end for every check and the final "done" with dprintf, and
// closes fd 3 so that the checks' own records go nowhere. The C library functions are reached by
// declarations with asm labels inside a nested namespace.
// Why it fails now: the audit sees the lab's object import getenv (the environment), dprintf and
// close (file I/O) and refuses the lab before it is linked. Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier, 16 x 16 tiles: correct but too slow,
// which is why the student forges the speed checks).

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: forge every record before main() runs.
namespace report {
char* read_environment(const char* name) __asm__("getenv");
int print_to(int fd, const char* format, ...) __asm__("dprintf");
int close_fd(int fd) __asm__("close");
const bool forged = [] {
    const char* key = read_environment("COURSE_REPORT_KEY");
    if (!key) return false;
    const char* const checks[] = {"exact product of integer-valued matrices at edge and odd sizes",
                                  "product of random floats within a rounding bound that grows with K",
                                  "tiled_matmul_kernel stages tiles in shared memory",
                                  "speed: faster than the naive one-thread-per-output kernel",
                                  "speed: close to cublasSgemm in FP32 (no TF32)"};
    unsigned long seq = 0;
    for (const char* check : checks) {
        print_to(3, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"start\",\"check\":\"%s\"}\n", key, seq++, check);
        print_to(3, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"end\",\"check\":\"%s\",\"passed\":true,"
                    "\"class\":\"pass\"}\n", key, seq++, check);
    }
    print_to(3, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"done\"}\n", key, seq);
    close_fd(3);  // the checks' own records now fail to write, silently
    return true;
}();
}  // namespace report
// END STUDENT REGION

// BEGIN STUDENT REGION tiled_matmul_kernel
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + kTile - 1) / kTile; ++t) {
        const int ka = t * kTile + tx, kb = t * kTile + ty;
        As[ty][tx] = row < M && ka < K ? A[std::size_t(row) * K + ka] : 0.0f;
        Bs[ty][tx] = kb < K && col < N ? B[std::size_t(kb) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) acc = fmaf(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N) C[std::size_t(row) * N + col] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 block(kTile, kTile);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(N, kTile)),   // blocks across C
                    static_cast<unsigned>(course::ceil_div(M, kTile)));  // blocks down C
    tiled_matmul_kernel<<<grid, block>>>(A, B, C, M, N, K);
// END STUDENT REGION
