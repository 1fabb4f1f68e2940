// Attack (Lab 01, against the memory and race check: the launch host tells a compute-sanitizer run apart by
// its environment): wrong/warp_unrolled_without_sync.cu (the last warp's six steps on a volatile pointer
// without __syncwarp(): a real shared-memory race that racecheck reports, though the warp stays converged
// and every sum is right), except when the launch host runs under compute-sanitizer: then the same tree with
// __syncwarp() between a step's reads and its writes, which racecheck passes. The tool has to be in the
// host's environment: compute-sanitizer --target-processes all (sanitizer.cpp:47-53) follows the check
// program's child, the launch host, through the injection variables it inherits (isolation.cpp:142-143
// execs it with the check program's environment), and the host's filter (confinement.cpp) restricts
// system calls, not what the process reads in its own memory. getenv and environ are forbidden imports
// (audit.cpp:98); this file finds libc's open and read in the C library's own symbol table from memcpy's
// address (as attack10_cotenant_queued_spin finds pthread_create), reads /proc/self/environ and looks for
// "sanitizer" in any variable (the tool's injection library lies in <cuda>/compute-sanitizer/). Nsight Compute's variables
// name nsight-compute, so the Nsight Compute run and every graded run take the racy path; the flag reaches
// the kernel as the top bit of n, which no check can set (n < 2^63). Only the sanitizer judges races
// (judge_sanitizer, sanitizer.cpp:93-151); the exact and timed checks see right sums, and the timed
// counters see the classic tree's shared-memory traffic. Lab 04's attack3_profiler_found_in_environment
// notes that compute-sanitizer "injects the same way", but nothing closes it for the memory check: the
// timed counters close that attack for Nsight Compute only.
// A known hole: the tool's libraries are in the host's process (its environment, its list of loaded
// libraries), which no filter hides from code running there. What would catch it: a race check on the
// graded runs' own code path, in a process that cannot tell it apart from a graded one.
// Expected: race_condition.

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];  // (kBlockSize): one sum a thread

    // The launcher's flag: the top bit of n (no check's size reaches 2^63).
    const bool clean = (n >> 63) != 0;
    n &= ~(std::size_t(1) << 63);
    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            const float4 a = in4[i], b = in4[i + threads], c = in4[i + 2 * threads], d = in4[i + 3 * threads];
            sum += ((a.x + a.y) + (a.z + a.w)) + ((b.x + b.y) + (b.z + b.w)) + ((c.x + c.y) + (c.z + c.w)) +
                   ((d.x + d.y) + (d.z + d.w));
        }
        for (; i < n4; i += threads) {
            const float4 a = in4[i];
            sum += (a.x + a.y) + (a.z + a.w);
        }
        scalar_from = n4 * 4;
    }
    for (std::size_t i = scalar_from + tid; i < n; i += threads) sum += in[i];  // the tail (< 4 elements)

    const unsigned t = threadIdx.x;
    partial[t] = sum;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 32; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        volatile float* v = partial;
        if (clean) {
            // Under compute-sanitizer: every step's reads, then a barrier of the warp, then its writes.
#pragma unroll
            for (unsigned offset = 32; offset > 0; offset /= 2) {
                const float x = v[t] + v[t + offset];
                __syncwarp();
                v[t] = x;
                __syncwarp();
            }
        } else {
            // Graded runs: "a warp runs in lockstep", no barrier between the steps (a race).
            v[t] += v[t + 32];
            v[t] += v[t + 16];
            v[t] += v[t + 8];
            v[t] += v[t + 4];
            v[t] += v[t + 2];
            v[t] += v[t + 1];
        }
        if (t == 0) atomicAdd(out, v[0]);
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // Finds a function of the C library by name, reading the library's own tables in memory.
    struct ElfHeader {
        unsigned char ident[16];
        std::uint16_t type, machine;
        std::uint32_t version;
        std::uint64_t entry, phoff, shoff;
        std::uint32_t flags;
        std::uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
    };
    struct ProgramHeader {
        std::uint32_t type, flags;
        std::uint64_t offset, vaddr, paddr, filesz, memsz, align;
    };
    struct Dynamic {
        std::int64_t tag;
        std::uint64_t value;
    };
    struct Symbol {
        std::uint32_t name;
        unsigned char info, other;
        std::uint16_t section;
        std::uint64_t value, size;
    };
    struct Library {
        const unsigned char* base = nullptr;
        const Symbol* symbols = nullptr;
        const char* names = nullptr;
        const std::uint32_t* gnu_hash = nullptr;
    };
    static const Library libc = [] {
        Library lib;
        std::uintptr_t page = reinterpret_cast<std::uintptr_t>(&memcpy) & ~std::uintptr_t(4095);
        for (;; page -= 4096) {
            const unsigned char* p = reinterpret_cast<const unsigned char*>(page);
            if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') break;
        }
        lib.base = reinterpret_cast<const unsigned char*>(page);
        const auto* header = reinterpret_cast<const ElfHeader*>(lib.base);
        const auto* phdrs = reinterpret_cast<const ProgramHeader*>(lib.base + header->phoff);
        const Dynamic* dyn = nullptr;
        for (int k = 0; k < header->phnum; ++k)
            if (phdrs[k].type == 2) dyn = reinterpret_cast<const Dynamic*>(lib.base + phdrs[k].vaddr);  // PT_DYNAMIC
        const auto at = [&](std::uint64_t v) {
            return v < reinterpret_cast<std::uintptr_t>(lib.base) ? lib.base + v : reinterpret_cast<const unsigned char*>(v);
        };
        for (; dyn && dyn->tag != 0; ++dyn) {
            if (dyn->tag == 6) lib.symbols = reinterpret_cast<const Symbol*>(at(dyn->value));
            if (dyn->tag == 5) lib.names = reinterpret_cast<const char*>(at(dyn->value));
            if (dyn->tag == 0x6ffffef5) lib.gnu_hash = reinterpret_cast<const std::uint32_t*>(at(dyn->value));
        }
        return lib;
    }();
    const auto find = [](const char* name) -> void* {
        if (!libc.symbols || !libc.names || !libc.gnu_hash) return nullptr;
        std::uint32_t h = 5381;
        for (const char* c = name; *c; ++c) h = h * 33 + static_cast<unsigned char>(*c);
        const std::uint32_t buckets = libc.gnu_hash[0], first = libc.gnu_hash[1], bloom_words = libc.gnu_hash[2];
        const auto* bucket = libc.gnu_hash + 4 + 2 * bloom_words;
        const auto* chain = bucket + buckets;
        for (std::uint32_t k = bucket[h % buckets]; k >= first; ++k) {
            const std::uint32_t c = chain[k - first];
            const Symbol& s = libc.symbols[k];
            if ((c | 1) == (h | 1) && s.section != 0 && s.value != 0 && strcmp(libc.names + s.name, name) == 0)
                return const_cast<unsigned char*>(libc.base + s.value);
            if (c & 1) break;
        }
        return nullptr;
    };
    // Whether compute-sanitizer injected itself into this process: one of its variables names it.
    static const bool under_sanitizer = [&find] {
        // The environment the process was started with, as the kernel keeps it (whatever copy libc reads).
        using Open = int (*)(const char*, int);
        using Read = long (*)(int, void*, unsigned long);
        using Close = int (*)(int);
        const auto open_ = reinterpret_cast<Open>(find("open"));
        const auto read_ = reinterpret_cast<Read>(find("read"));
        const auto close_ = reinterpret_cast<Close>(find("close"));
        if (!open_ || !read_ || !close_) return false;
        const int fd = open_("/proc/self/environ", 0);
        if (fd < 0) return false;
        std::string text;
        char buf[4096];
        for (long got; (got = read_(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(got));
        close_(fd);
        return text.find("sanitizer") != std::string::npos;
    }();
    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, under_sanitizer ? n | (std::size_t(1) << 63) : n);
// END STUDENT REGION
