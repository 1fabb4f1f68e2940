// Attack (Lab 01, against time_across: slow the rivals, not yourself): a kernel half as fast as it must be
// (the reference's, run twice a call: about 0.5x CUB, where 0.70x passes) plus a thread in the student's
// launch host that keeps the GPU busy from its own context whenever the host is not serving a call. Two
// contexts on one GPU time-slice: the baseline's and the peer's batches (and the check program's samples
// that end their intervals) then share the GPU with the busy context, while the student's batches run
// alone (the thread stops when a call begins and waits 3 ms after the last call of a batch returns, past
// the check program's sample of the outputs). The peer's own events see its slowed calls as its GPU time,
// so the boundary's learnt cost does not take the slowdown off: the peer's and the baseline's times grow,
// and the student's ratios with them (about 2x: 0.5x CUB reads as about 1x, under the 1.15x cap).
// The audit forbids threads, timers and dlsym by their imports; this file imports only what the course
// allows (memcpy, strcmp, cudaMalloc, cudaMemsetAsync, cudaStreamSynchronize): it finds pthread_create and
// usleep in the C library's own symbol tables in memory, starting from memcpy's address, and calls them
// through function pointers. The busy work is cudaMemsetAsync on the per-thread default stream (a constant,
// cudaStreamPerThread, no stream is created), which no kernel trace and no Nsight Compute rule sees.
// What should catch it: an audit that cannot be bypassed by computed calls (a seccomp filter, or no thread
// allowed in the launch host: e.g. checking the host's thread count, or making it single-threaded by
// construction), or timing that detects a foreign context busy on the GPU between the student's calls
// (e.g. the peers timed with the student's host stopped, SIGSTOP, or the student's host idle-checked).
// Since then, each host is stopped outside its own calls, and the timed calls' counters count what the
// student's process runs between its calls too: the thread's memsets, blocks with no shared memory, halve
// the shared-memory wavefronts a block (0.51 loads and 4.27 stores a block on an H100, where every block of
// the reference shows 1.0 and 8.4, and 0.90 is needed). Expected: technique_not_used (the timed counters;
// its kernel alone, at about 0.5x CUB, would be too_slow).

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
        // memcpy's address (an import the course allows) lies in the C library's code; its ELF header is at
        // the start of the first page of its mapping, which is contiguous down to there.
        std::uintptr_t page = reinterpret_cast<std::uintptr_t>(&memcpy) & ~std::uintptr_t(4095);
        for (;; page -= 4096) {
            const unsigned char* p = reinterpret_cast<const unsigned char*>(page);
            if (p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F') break;
        }
        lib.base = reinterpret_cast<const unsigned char*>(page);
        const auto* header = reinterpret_cast<const ElfHeader*>(lib.base);
        const auto* phdrs = reinterpret_cast<const ProgramHeader*>(lib.base + header->phoff);
        const Dynamic* dyn = nullptr;
        for (int i = 0; i < header->phnum; ++i)
            if (phdrs[i].type == 2) dyn = reinterpret_cast<const Dynamic*>(lib.base + phdrs[i].vaddr);  // PT_DYNAMIC
        const auto at = [&](std::uint64_t v) {  // the loader relocates these on x86-64; be safe either way
            return v < reinterpret_cast<std::uintptr_t>(lib.base) ? lib.base + v : reinterpret_cast<const unsigned char*>(v);
        };
        for (; dyn && dyn->tag != 0; ++dyn) {
            if (dyn->tag == 6) lib.symbols = reinterpret_cast<const Symbol*>(at(dyn->value));         // DT_SYMTAB
            if (dyn->tag == 5) lib.names = reinterpret_cast<const char*>(at(dyn->value));             // DT_STRTAB
            if (dyn->tag == 0x6ffffef5) lib.gnu_hash = reinterpret_cast<const std::uint32_t*>(at(dyn->value));  // DT_GNU_HASH
        }
        return lib;
    }();
    const auto find = [](const char* name) -> const void* {
        if (!libc.symbols || !libc.names || !libc.gnu_hash) return nullptr;
        std::uint32_t h = 5381;
        for (const char* c = name; *c; ++c) h = h * 33 + static_cast<unsigned char>(*c);
        const std::uint32_t buckets = libc.gnu_hash[0], first = libc.gnu_hash[1], bloom_words = libc.gnu_hash[2];
        const auto* bucket = libc.gnu_hash + 4 + 2 * bloom_words;
        const auto* chain = bucket + buckets;
        for (std::uint32_t i = bucket[h % buckets]; i >= first; ++i) {
            const std::uint32_t c = chain[i - first];
            const Symbol& s = libc.symbols[i];
            if ((c | 1) == (h | 1) && s.section != 0 && s.value != 0 && strcmp(libc.names + s.name, name) == 0)
                return libc.base + s.value;
            if (c & 1) break;
        }
        return nullptr;
    };
    // The busy thread, started once a process.
    struct Busy {
        volatile int in_call = 0;
        volatile unsigned returns = 0;
        void* buffer = nullptr;
        int (*sleep_us)(unsigned) = nullptr;
    };
    static Busy busy;
    static const bool started = [&find] {
        using Create = int (*)(unsigned long*, const void*, void* (*)(void*), void*);
        const auto create = reinterpret_cast<Create>(const_cast<void*>(find("pthread_create")));
        busy.sleep_us = reinterpret_cast<int (*)(unsigned)>(const_cast<void*>(find("usleep")));
        if (!create || !busy.sleep_us || cudaMalloc(&busy.buffer, std::size_t(32) << 20) != cudaSuccess) return false;
        void* (*work)(void*) = [](void* arg) -> void* {
            Busy& b = *static_cast<Busy*>(arg);
            for (;;) {
                if (b.in_call) {
                    b.sleep_us(100);
                    continue;
                }
                const unsigned seen = b.returns;
                b.sleep_us(3000);  // past the check program's sample of the last output
                while (!b.in_call && b.returns == seen) {
                    for (int k = 0; k < 4; ++k) cudaMemsetAsync(b.buffer, k, std::size_t(32) << 20, cudaStreamPerThread);
                    cudaStreamSynchronize(cudaStreamPerThread);
                }
            }
            return nullptr;
        };
        unsigned long thread = 0;
        return create(&thread, nullptr, work, &busy) == 0;
    }();
    (void)started;
    busy.in_call = 1;

    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    static float* scratch = [] {
        float* p = nullptr;
        CUDA_CHECK(cudaMalloc(&p, sizeof(float)));
        return p;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    // The slow part: the whole sum twice, the first into a scratch float (half the speed the check asks for).
    CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, scratch, n);
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    busy.returns = busy.returns + 1;
    busy.in_call = 0;
// END STUDENT REGION
