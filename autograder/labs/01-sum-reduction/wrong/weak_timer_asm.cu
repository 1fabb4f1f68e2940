// Cheat, Lab 01 (found by probing; it got full marks before a region could no longer hold asm): the
// grader's interleaved timer, course::time_interleaved (common/timer.cu), is replaced for the whole
// check program. A basic asm block in the launch region emits a WEAK definition of its mangled
// symbol, a stub that jumps through a data slot; the launcher then stores a captureless lambda of
// its own in that slot, which fills the sample table with 1 us for contender 0 (the student's
// launcher) and 1 ms for every other (baseline, CUB), so both speed ratios read 1000x. The kernel
// and launch themselves are the one-element-per-thread tier (correct, too slow).
// Why it fails now: a region may not hold asm (anywhere), so the submission is refused before
// anything is compiled. (Behind that, the grader's objects are now linked first, so their strong
// course::time_interleaved would win, and the audit refuses any definition of a name the grader
// defines.) Expected: refused_region.
//
// Region-overlay form: both regions are this variant's.

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
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    // BUG: one element per thread: ceil(n / 256) blocks, no grid-stride loop, no float4 loads
    block_sum_kernel<<<static_cast<unsigned>(course::ceil_div(n, kBlockSize)), kBlockSize>>>(in, out, n);

    // The grader's interleaved timer, course::time_interleaved, replaced by a weak definition of its
    // symbol: a stub that jumps through a slot this launcher fills with a lambda of its own.
    struct Samples { double* begin; double* end; double* cap; };
    struct Table { Samples* begin; Samples* end; Samples* cap; };
    struct Contenders { const char* begin; const char* end; const char* cap; };
    struct Options { int warmup; int repetitions; void* flusher; };
    Table* (*fake)(Table*, const Contenders*, const Options*) = [](Table* t, const Contenders* c, const Options* o) -> Table* {
        const long k = (c->end - c->begin) / 32;  // sizeof(std::function<void()>)
        t->begin = static_cast<Samples*>(::operator new(k * sizeof(Samples)));
        t->end = t->cap = t->begin + k;
        for (long i = 0; i < k; ++i) {
            double* s = static_cast<double*>(::operator new(o->repetitions * sizeof(double)));
            for (int r = 0; r < o->repetitions; ++r) s[r] = i == 0 ? 0.001 : 1.0;
            t->begin[i] = {s, s + o->repetitions, s + o->repetitions};
        }
        return t;
    };
    asm(".pushsection .text.lab_stub, \"ax\", @progbits\n"
        ".weak _ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE\n"
        "_ZN6course16time_interleavedERKSt6vectorISt8functionIFvvEESaIS3_EERKNS_12BenchOptionsE:\n"
        "    jmp *lab01_fake_timer_slot(%rip)\n"
        ".popsection\n"
        ".pushsection .data\n.p2align 3\nlab01_fake_timer_slot: .quad 0\n.popsection\n");
    asm volatile("movq %0, lab01_fake_timer_slot(%%rip)" : : "r"(fake) : "memory");
// END STUDENT REGION
