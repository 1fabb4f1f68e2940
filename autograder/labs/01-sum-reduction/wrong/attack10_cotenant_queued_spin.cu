// Attack (Lab 01, against another grading on the same GPU, not against its own): the reference, plus a
// thread in the student's launch host (pthread_create found in the C library's own tables, as in
// attack3_resolved_thread_slows_rivals) that, after each call at a benchmark size returns, queues one
// more launch of the graded kernel on the per-thread default stream (one at a time), with a size no check uses, at which
// one thread sleeps for about 6 s (__nanosleep) and returns. Its own calls are not slowed until the next one
// (the host waits for its device after every call), so the spin is queued when its check program changes
// the GPU lock at the end of a bench and stops the launch host: a stopped process's queued kernels still
// run. A grading that gets the GPU alone next would find it busy for seconds while timing its baseline and
// peer, and its (honest) student would be failed as if their own process had left the work.
// What catches it: the measured pass ends the student's process (its CUDA context and everything it
// queued go with it) before every change of the lock, with the lock still held, and a grading that still
// finds the GPU busy with its own student's process ended calls the measurement disturbed (no verdict,
// measured again) instead of failing its student. Graded beside the solutions on one GPU by
// .ci/gpu-cotenant.sh, which asserts the solutions pass.
// Its own grade: its own calls at the benchmark size wait for the spins its thread queued (the host waits
// for its device after every call), about 5 s each on an H200, so its measured pass runs past the lab's
// time limit in its first timed batch. Expected: timeout (measured on an H200 twice, beside other
// gradings). It read as implausible_measurement while the performance monitors' buffer was 128 MiB: its
// first sampled window, seconds long, overflowed the buffer and no later window could start.

// BEGIN STUDENT REGION block_sum_kernel
    // A size no check uses, which the launch host's thread passes to keep the GPU busy: one thread spins.
    constexpr std::size_t kSpinSize = 0x5eedf00du;
    if (n == kSpinSize) {
        if (threadIdx.x == 0 && blockIdx.x == 0) {
            for (int i = 0; i < 6000; ++i) __nanosleep(1000000u);  // about 6 s (a clock read is refused)
        }
        return;
    }
    constexpr int kWarps = kBlockSize / 32;
    __shared__ float warp_partial[kWarps];  // (warps of the block)

    const std::size_t tid = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0.0f;

    std::size_t scalar_from = 0;
    if ((reinterpret_cast<std::uintptr_t>(in) & 15) == 0) {  // float4 needs 16-byte alignment
        const float4* in4 = reinterpret_cast<const float4*>(in);
        const std::size_t n4 = n / 4;
        std::size_t i = tid;
        for (; i + 3 * threads < n4; i += 4 * threads) {
            // Issue all four loads before using any, so four memory requests overlap.
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

    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) warp_partial[warp] = sum;
    __syncthreads();  // every warp's partial is in shared memory before warp 0 reads them
    if (warp == 0) {
        sum = lane < kWarps ? warp_partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
        if (lane == 0) atomicAdd(out, sum);
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
    // The thread, started once a process: after each call at a benchmark size returns, one spin queued.
    struct Queue {
        volatile unsigned big_returns = 0;
        int (*sleep_us)(unsigned) = nullptr;
    };
    static Queue queue;
    static const bool started = [&find] {
        using Create = int (*)(unsigned long*, const void*, void* (*)(void*), void*);
        const auto create = reinterpret_cast<Create>(const_cast<void*>(find("pthread_create")));
        queue.sleep_us = reinterpret_cast<int (*)(unsigned)>(const_cast<void*>(find("usleep")));
        if (!create || !queue.sleep_us) return false;
        void* (*work)(void*) = [](void* arg) -> void* {
            Queue& q = *static_cast<Queue*>(arg);
            unsigned seen = 0;
            for (;;) {
                q.sleep_us(200);
                if (q.big_returns == seen) continue;
                seen = q.big_returns;
                block_sum_kernel<<<1, kBlockSize, 0, cudaStreamPerThread>>>(nullptr, nullptr, 0x5eedf00du);
                for (int s = 0; s < 6; ++s) q.sleep_us(1000000);  // one spin at a time
            }
            return nullptr;
        };
        unsigned long thread = 0;
        return create(&thread, nullptr, work, &queue) == 0;
    }();
    (void)started;

    static const int max_blocks = [] {
        int device = 0, sms = 0;
        CUDA_CHECK(cudaGetDevice(&device));
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return 8 * sms;
    }();
    const std::size_t wanted = course::ceil_div(n, std::size_t(kBlockSize) * 16);  // >= 16 elements a thread
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(std::max<std::size_t>(wanted, 1), max_blocks));
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    block_sum_kernel<<<grid, kBlockSize>>>(in, out, n);
    if (n >= (std::size_t(1) << 24)) queue.big_returns = queue.big_returns + 1;
// END STUDENT REGION
