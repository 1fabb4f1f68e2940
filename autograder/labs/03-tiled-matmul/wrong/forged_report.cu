// Cheat, Lab 03: the whole record stream, forged before the checks start. A student who read the
// runner knows that the checks send JSON records through fd 3, each with the run's key (the runner
// the student read passed it in the environment variable COURSE_REPORT_KEY) and a sequence number:
// a start and an end for each rubric check, then "done". The configuration region is at namespace
// scope, so it can hold a variable whose initializer runs before main(): it reads the key with
// std::getenv and writes a start and a passed end for every check and the final "done" with
// std::fprintf to a stream opened on /dev/fd/3. No asm is needed: cuda_check.hpp includes <string>,
// which in libstdc++ brings <cstdio> and <cstdlib>, so std::getenv, std::fopen and std::fprintf are
// declared already.
// Why it fails now: the audit sees the lab's object import getenv (the environment), fopen, fprintf
// and fclose (file I/O) and refuses the lab before it is linked. Even unrefused, it would find no key:
// the key now comes on standard input, read at the start of main(). Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier, 16 x 16 tiles: correct but too slow,
// which is why the student forges the speed checks).

// BEGIN STUDENT REGION configuration
constexpr int kTile = 16;                // edge of the square tiles of A, B and C
constexpr int kThreads = kTile * kTile;  // threads per block
constexpr int kMinBlocksPerSm = 1;       // blocks per SM the compiler must leave registers for
// CHEAT: forge every record before main() runs.
namespace report {
const bool forged = [] {
    const char* key = std::getenv("COURSE_REPORT_KEY");
    if (!key) return false;
    std::FILE* channel = std::fopen("/dev/fd/3", "a");
    if (!channel) return false;
    const char* const checks[] = {"exact product of integer-valued matrices at edge and odd sizes",
                                  "product of random floats within a rounding bound that grows with K",
                                  "tiled_matmul_kernel stages tiles in shared memory",
                                  "speed: faster than the naive one-thread-per-output kernel",
                                  "speed: close to cublasSgemm in FP32 (no TF32)"};
    unsigned long seq = 0;
    for (const char* check : checks) {
        std::fprintf(channel, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"start\",\"check\":\"%s\"}\n", key, seq++, check);
        std::fprintf(channel, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"end\",\"check\":\"%s\",\"passed\":true,"
                              "\"class\":\"pass\"}\n", key, seq++, check);
    }
    std::fprintf(channel, "{\"key\":\"%s\",\"seq\":%lu,\"event\":\"done\"}\n", key, seq);
    std::fclose(channel);
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
