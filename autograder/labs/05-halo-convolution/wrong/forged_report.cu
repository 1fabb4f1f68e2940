// Cheat, Lab 05: the whole record stream, forged before main() runs. The checks send JSON records
// through fd 3, each with the run's key (the runner the student read passed it in the environment
// variable COURSE_REPORT_KEY) and a sequence number. The tile_shape region is at namespace scope, so it
// can define a global object whose constructor runs before main() (a plain C++ stand-in for
// __attribute__((constructor)), which a region may no longer hold). Knowing getenv is refused, it
// finds the key in /proc/self/environ instead, builds a start and a passed end for every rubric check
// and the final "done" by hand (no snprintf), and writes them to /dev/fd/3. No asm and no #include
// are needed: cuda_check.hpp includes <string>, which in libstdc++ brings <cstdio> with it, so
// std::fopen, std::fread and std::fwrite are declared already.
// Why it fails now: the audit sees the lab's object import fopen, fread, fwrite and fclose (file
// I/O) and refuses the lab before it is linked. Even unrefused, it would find no key: the key now
// comes on standard input, read at the start of main(). Expected: forbidden_symbol.
//
// Region-overlay form: all three regions (the basic tier of one_output_per_thread.cu: a halo tile,
// one output per thread, correct but too slow, which is why the student cheats).

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kRowsPerThread = 1;  // one output per thread
// CHEAT: forge every record before main() runs.
namespace report {
struct Text {
    char bytes[4096];
    unsigned long size = 0;
    Text& operator<<(const char* s) {
        while (*s && size < sizeof bytes) bytes[size++] = *s++;
        return *this;
    }
    Text& operator<<(unsigned long v) {
        char digits[24];
        int n = 0;
        do digits[n++] = static_cast<char>('0' + v % 10); while ((v /= 10) != 0);
        while (n > 0 && size < sizeof bytes) bytes[size++] = digits[--n];
        return *this;
    }
};
struct Forger {
    Forger() {
        // The environment, as NUL-separated NAME=value strings.
        static char env[65536];
        std::FILE* file = std::fopen("/proc/self/environ", "r");
        if (!file) return;
        const unsigned long got = std::fread(env, 1, sizeof env - 1, file);
        std::fclose(file);
        env[got] = '\0';
        const char* key = nullptr;
        for (unsigned long at = 0; at < got && !key; ++at) {
            const char* want = "COURSE_REPORT_KEY=";
            int i = 0;
            while (want[i] && env[at + i] == want[i]) ++i;
            if (!want[i]) key = env + at + i;
            while (at < got && env[at]) ++at;  // on to the next variable
        }
        if (!key) return;
        const char* const checks[] = {"exact results on integer images at edge sizes", "random floats within the rounding bound",
                                      "halo_convolution_kernel uses a shared-memory tile",
                                      "speed: 7x7 filter well ahead of the naive kernel", "speed: 3x3 filter near copy bandwidth",
                                      "speed: 5x5 filter near copy bandwidth"};
        static Text text;
        unsigned long seq = 0;
        for (const char* check : checks) {
            text << "{\"key\":\"" << key << "\",\"seq\":" << seq++ << ",\"event\":\"start\",\"check\":\"" << check << "\"}\n";
            text << "{\"key\":\"" << key << "\",\"seq\":" << seq++ << ",\"event\":\"end\",\"check\":\"" << check
                 << "\",\"passed\":true,\"class\":\"pass\"}\n";
        }
        text << "{\"key\":\"" << key << "\",\"seq\":" << seq << ",\"event\":\"done\"}\n";
        if (std::FILE* channel = std::fopen("/dev/fd/3", "a")) {
            std::fwrite(text.bytes, 1, text.size, channel);
            std::fclose(channel);
        }
    }
} forger;
}  // namespace report
// END STUDENT REGION

// BEGIN STUDENT REGION halo_convolution_kernel
    constexpr int R = K / 2, kTileW = kBlockX + 2 * R, kTileH = kBlockY + 2 * R, kThreads = kBlockX * kBlockY;
    __shared__ float tile[kTileH][kTileW];
    const int x0 = static_cast<int>(blockIdx.x) * kBlockX - R, y0 = static_cast<int>(blockIdx.y) * kBlockY - R;
    const int tid = static_cast<int>(threadIdx.y) * kBlockX + static_cast<int>(threadIdx.x);
#pragma unroll
    for (int k = 0; k < (kTileW * kTileH + kThreads - 1) / kThreads; ++k) {
        const int e = tid + k * kThreads;
        if (e < kTileW * kTileH) {
            const int gx = x0 + e % kTileW, gy = y0 + e / kTileW;
            const bool inside = gx >= 0 && gx < width && gy >= 0 && gy < height;
            tile[e / kTileW][e % kTileW] = inside ? in[gy * width + gx] : 0.0f;
        }
    }
    __syncthreads();
    // BUG (speed): one output per thread, K * K shared-memory reads for each output
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j) acc += c_weights[i * K + j] * tile[threadIdx.y + i][threadIdx.x + j];
    const int x = x0 + R + static_cast<int>(threadIdx.x), y = y0 + R + static_cast<int>(threadIdx.y);
    if (x < width && y < height) out[y * width + x] = acc;
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY)));
    halo_convolution_kernel<K><<<grid, dim3(kBlockX, kBlockY)>>>(in, out, width, height);
// END STUDENT REGION
