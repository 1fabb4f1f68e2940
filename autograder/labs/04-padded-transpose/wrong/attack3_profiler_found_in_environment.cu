// Attack (Lab 04, against every Nsight Compute check: the profiled process tells itself apart by what the
// profiler puts into it): the kernel of wrong/pads_only_when_profiled.cu, a [32][34] tile (2-way
// conflicts on every column read) in graded calls and a [32][33] one when profiled; but where that one
// recognised the profile workload by its first call (and is caught now that the profiled calls are made as
// a graded run makes them), this launcher asks the environment. Nsight Compute injects itself into the
// processes it profiles through CUDA_INJECTION64_PATH (with --target-processes all, the launch host that
// the check program execs inherits it), and its launcher adds NV_TPS_* variables. getenv is forbidden by
// import; this file finds getenv in the C library's own symbol tables in memory, from memcpy's address (an
// import the course allows), and calls it through a pointer. Graded runs have no injection: [32][34],
// fast enough for the speed checks. Whatever calls a profile makes, and in whatever order, it sees padding.
// compute-sanitizer injects the same way: under the memory and race check the kernel also takes the
// clean tile, which is as correct as the other.
// What should catch it: measuring in a process the student's code cannot inspect (e.g. the student's
// kernels loaded from the lab's object into a trusted host for profiling), or an audit that computed calls
// cannot bypass (seccomp in the launch host). Expected: technique_not_used (the bank-conflict check).

// BEGIN STUDENT REGION transpose_tile_kernel
    __shared__ float tile[kTile * (kTile + 2)];     // room for a [32][34] tile
    const bool clean = rows < 0;                    // set only when a profiler is injected
    const int nrows = clean ? -rows : rows;
    const int pitch = clean ? kTile + 1 : kTile + 2;  // 33: conflict-free; 34: 2-way conflicts
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int row = row0 + j;
        if (row < nrows && col < cols) tile[(threadIdx.y + j) * pitch + threadIdx.x] = in[std::size_t(row) * cols + col];
    }
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row0 = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kBlockRows) {
        const int out_row = out_row0 + j;
        if (out_row < cols && out_col < nrows)
            out[std::size_t(out_row) * nrows + out_col] = tile[threadIdx.x * pitch + threadIdx.y + j];
    }
// END STUDENT REGION

// BEGIN STUDENT REGION launch
    // Finds a function of the C library by name, reading the library's own tables in memory.
    struct ElfHeader {
        unsigned char ident[16];
        unsigned short type, machine;
        unsigned int version;
        unsigned long long entry, phoff, shoff;
        unsigned int flags;
        unsigned short ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
    };
    struct ProgramHeader {
        unsigned int type, flags;
        unsigned long long offset, vaddr, paddr, filesz, memsz, align;
    };
    struct Dynamic {
        long long tag;
        unsigned long long value;
    };
    struct Symbol {
        unsigned int name;
        unsigned char info, other;
        unsigned short section;
        unsigned long long value, size;
    };
    struct Library {
        const unsigned char* base = nullptr;
        const Symbol* symbols = nullptr;
        const char* names = nullptr;
        const unsigned int* gnu_hash = nullptr;
    };
    static const Library libc = [] {
        Library lib;
        // memcpy's address (an import the course allows) lies in the C library's code; its ELF header is at
        // the start of the first page of its mapping, which is contiguous down to there.
        unsigned long long page = reinterpret_cast<unsigned long long>(&memcpy) & ~4095ull;
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
        const auto at = [&](unsigned long long v) {  // the loader relocates these on x86-64; be safe either way
            return v < reinterpret_cast<unsigned long long>(lib.base) ? lib.base + v : reinterpret_cast<const unsigned char*>(v);
        };
        for (; dyn && dyn->tag != 0; ++dyn) {
            if (dyn->tag == 6) lib.symbols = reinterpret_cast<const Symbol*>(at(dyn->value));         // DT_SYMTAB
            if (dyn->tag == 5) lib.names = reinterpret_cast<const char*>(at(dyn->value));             // DT_STRTAB
            if (dyn->tag == 0x6ffffef5) lib.gnu_hash = reinterpret_cast<const unsigned int*>(at(dyn->value));  // DT_GNU_HASH
        }
        return lib;
    }();
    const auto find = [](const char* name) -> const void* {
        if (!libc.symbols || !libc.names || !libc.gnu_hash) return nullptr;
        unsigned int h = 5381;
        for (const char* c = name; *c; ++c) h = h * 33 + static_cast<unsigned char>(*c);
        const unsigned int buckets = libc.gnu_hash[0], first = libc.gnu_hash[1], bloom_words = libc.gnu_hash[2];
        const auto* bucket = libc.gnu_hash + 4 + 2 * bloom_words;
        const auto* chain = bucket + buckets;
        for (unsigned int i = bucket[h % buckets]; i >= first; ++i) {
            const unsigned int c = chain[i - first];
            const Symbol& s = libc.symbols[i];
            if ((c | 1) == (h | 1) && s.section != 0 && s.value != 0 && strcmp(libc.names + s.name, name) == 0)
                return libc.base + s.value;
            if (c & 1) break;
        }
        return nullptr;
    };
    static const bool profiled = [&find] {
        const auto get = reinterpret_cast<char* (*)(const char*)>(const_cast<void*>(find("getenv")));
        if (!get) return false;
        return get("CUDA_INJECTION64_PATH") != nullptr || get("NV_TPS_LAUNCH_UID") != nullptr;
    }();
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTile)));
    transpose_tile_kernel<<<grid, block>>>(in, out, profiled ? -rows : rows, cols);
// END STUDENT REGION
