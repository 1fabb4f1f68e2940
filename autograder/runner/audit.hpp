/// @file audit.hpp
/// @brief The audit of a lab's compiled code before it runs: what it defines and what it imports.
///
/// The lab's graded file is compiled as an object of its own and its symbol table read. It may define
/// only its lab's namespace (`labNN::`), plus the weak copies of inline library code every C++ object
/// carries (among them the exception tables' pointers to the types it catches); so it cannot replace a
/// grader symbol, a CUDA runtime call or the C library. It may import only what the allow-list names:
/// kernel launches, device memory, occupancy and device queries, errors, math and the C++ runtime.
/// Everything else (exit, file and stream I/O, dlopen, the environment, streams, graphs, events, timers,
/// CUB device algorithms, cuBLAS, Thrust, processes, threads) is refused with the reason. Its host code
/// may not hold a raw system call or a time-stamp read.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace grading {

/// @brief One symbol of an object's table.
struct ObjectSymbol {
    std::string name;       ///< as in the object (mangled)
    char type = 'U';        ///< nm's letter: U undefined, T text, D data, W weak, ...
    /// @brief True for a symbol the object uses but does not define.
    bool undefined() const { return type == 'U' || type == 'w' || type == 'v'; }
    /// @brief True for a weak or unique definition (inline functions, template instantiations).
    bool weak() const { return type == 'W' || type == 'V' || type == 'u'; }
};

/// @brief An allow-list entry: a full-match regular expression on the demangled name, and why it is there.
struct AllowRule {
    std::string pattern;  ///< ECMAScript regular expression, matched against the whole demangled name
    std::string reason;   ///< what it lets a lab do
};

/// @brief The course's allow-list of imports, the same for every lab.
const std::vector<AllowRule>& import_allow_list();

/// @brief True for an attribute a lab's code may carry, named without namespace or underscores
/// (`always_inline` for `gnu::__always_inline__`): CUDA's qualifiers' expansions, the standard's, and GCC's
/// that inline, warn, align or describe; never one that runs, renames or moves code.
bool harmless_attribute(const std::string& name);

/// @brief The demangled form of @p name (itself when it is not a C++ name).
std::string demangle(const std::string& name);

/// @brief Why @p demangled is refused, in the words a student needs ("file or stream I/O", ...).
std::string refusal_reason(const std::string& demangled);

/// @brief The audit's finding: empty when the object may run.
struct AuditFinding {
    std::string message;             ///< the first problem ("" when none)
    std::vector<std::string> all;    ///< every problem, one line each
    /// Adds problem @p line (the first one also becomes the message).
    void add(const std::string& line) {
        if (message.empty()) message = line;
        all.push_back(line);
    }
};

/// @brief One function of the object's host code, as the disassembler shows it.
struct HostFunction {
    std::string name;                      ///< its symbol (mangled)
    std::vector<std::string> mnemonics;    ///< its instructions, in order ("mov", "call", "syscall", ...)
    std::vector<std::string> relocations;  ///< the symbols its code refers to, in order
    /// What its instructions point at without naming a symbol in a relocation, in order: in their own
    /// section, the symbol the disassembler names (`# 300 <name>`, `call 3aa <name+0x48>`, without the
    /// offset); in another, the place a section-relative relocation points at (`.text+0x30`).
    std::vector<std::string> targets;
    /// The places its instructions point at that the disassembler names by a symbol exactly, without an
    /// offset (`call 210 <name>`, `lea ... # 300 <name>`): a function's start, if it lies in this
    /// function's own section (in an object every section starts at 0, and objdump may name a place of
    /// one section after a symbol of another).
    std::vector<std::string> starts;
    std::string section;  ///< the section it lies in (`Disassembly of section .text:`)
};

/// @brief True for nvcc's host stand-in of a `__device__` function of lab @p lab_id: a few instructions
/// that call exit() and nothing else, and, where @p referenced (referenced_functions) is given, that
/// nothing in the object refers to (host code never calls a __device__ function). Only these may import
/// exit.
bool is_device_function_stub(const HostFunction& f, const std::string& lab_id,
                             const std::set<std::string>* referenced = nullptr);

/// @brief The functions an object refers to anywhere but in its unwind tables and debug information:
/// the targets of its relocations (`objdump -r`, @p relocations), a section-relative one named by the
/// function that starts there (`objdump -t`, @p symbol_table).
std::set<std::string> referenced_functions(const std::string& symbol_table, const std::string& relocations);

/// @brief Audits the symbols of lab @p lab_id's object.
/// @param symbols the object's external symbols
/// @param extra_allowed per-lab additions to the allow-list (full-match patterns on demangled names)
/// @param host_code the object's host functions: raw system calls and time-stamp reads are refused, and
///        exit() may be called only from nvcc's stubs of __device__ functions
/// @param grader_definitions the names the grader's own objects define (strong definitions): the lab may
///        define none of them, even inside its namespace (the grader's baselines live in labNN::baseline)
/// @param referenced the functions the object refers to (referenced_functions), when known: a function
///        among them is never taken for nvcc's stand-in of a __device__ function
AuditFinding audit_symbols(const std::string& lab_id, const std::vector<ObjectSymbol>& symbols,
                           const std::vector<std::string>& extra_allowed, const std::vector<HostFunction>& host_code = {},
                           const std::set<std::string>& grader_definitions = {},
                           const std::set<std::string>* referenced = nullptr);

/// @brief Where the object refers to nvcc's glue that registers device code with the CUDA runtime
/// (__cudaRegisterFatBinary, __cudaRegisterFunction, __cudaRegisterVar, ...) or to atexit, outside nvcc's
/// own registration functions (its stub's file-local __sti____cudaRegisterAll, __cudaUnregisterBinaryUtil,
/// __nv_cudaEntityRegisterCallback and __nv_init_managed_rt_with_module, named outside any namespace, which
/// no lab's C++ can be). Their names are not trusted alone, since assembly can take one the compiler left
/// free by inlining: each may call only its own part of the glue (only the first registers the fatbinary
/// or calls atexit), the callback only when the first refers to it, and no name may be two functions'. The
/// allow-list takes these imports for that code only: a lab's function that calls them loads device code
/// the audit of the lab's PTX never read, a fatbinary held as data. Each finding once, in the order met:
/// the functions of @p host_code, then "data" where `objdump -r`'s @p relocations hold more references to
/// the glue (outside unwind tables and debug information) than the code does (a function's address in a
/// table). `objdump -t`'s @p symbol_table names the functions at the places the registration function
/// refers to by section and offset.
std::vector<std::string> registration_outside_nvcc(const std::vector<HostFunction>& host_code,
                                                   const std::string& relocations, const std::string& symbol_table = "");

/// @brief The symbols of `objdump -t`'s @p symbol_table that sit in code (a section `objdump -d`'s
/// @p disassembly shows, "Disassembly of section NAME:") and are neither functions nor sections: labels,
/// which only assembly makes (the compilers name a
/// function's inner places .L..., kept out of the symbol table). The audit gives each piece of code to the
/// symbol printed before it, and trusts the names of nvcc's own functions: a label of inline assembly
/// spelled as one of them would pass the code after it off as nvcc's. No lab's object has one.
std::vector<std::string> labels_in_code(const std::string& symbol_table, const std::string& disassembly);

/// @brief The code of `objdump -d`'s @p disassembly that lies in no function of `objdump -t`'s
/// @p symbol_table (between a function's start and its size), alignment padding aside (no-operations,
/// int3): only assembly puts code there, after a function the audit trusts (nvcc's registration) where
/// the disassembler shows it as that function's. One line per section that has some.
std::vector<std::string> code_outside_functions(const std::string& symbol_table, const std::string& disassembly);

/// @brief The entries of the object's .init_array and .fini_array (from `objdump -r`'s @p relocations)
/// that are not the start of a constructor the compilers make (nvcc's registration of the kernels, GCC's
/// initialization of namespace-scope variables), found by name or by section and offset in
/// @p symbol_table: code that a section attribute or assembly listed to run before main() or at exit.
std::vector<std::string> unexpected_constructors(const std::string& symbol_table, const std::string& relocations);

/// @brief What the sections of `objdump -h -w`'s @p section_headers show that the compilers do not make of a
/// lab's code: a section whose name is not among those nvcc and the host compiler give (code, constants,
/// data, exception tables, the fatbinary and its registration's constructor list, debug information,
/// notes of the stack and of the CPU's features), or that holds code (CODE) outside .text. Assembly can
/// name a section the linker or the C library give a meaning (.preinit_array, .ctors, .init, a
/// prioritised .init_array.NNNNN, .gnu.warning.*, an executable .note.GNU-stack), which no rule about
/// the source must then foresee. One line a finding.
std::vector<std::string> unexpected_sections(const std::string& section_headers);

/// @brief The functions of the PTX @p ptx (nvcc --keep's .ptx of the lab's object: every kernel and
/// __device__ function the lab's code compiles to, the library code it pulls in included) that read the
/// GPU's global timer (%globaltimer, _lo, _hi), demangled; each once, in order. Any line that names the
/// timer counts, a comment's included (ptxas and a line-by-line reading disagree on where comments end). The timer is the same on
/// every SM, so device code that reads it tells back-to-back launches (a timed batch) from others, however
/// it is reached: inline PTX, cuda::ptx, cuda::std::chrono or libcu++'s back-off loops. An SM's own
/// clock (%clock, %clock64: clock(), clock64()) is not this timer.
std::vector<std::string> device_timer_readers(const std::string& ptx);

/// @brief The functions of the PTX @p ptx that read an SM's own clock (%clock, %clock_hi, %clock64:
/// clock(), clock64()), demangled, each once, in order, read as device_timer_readers reads the global
/// timer. A kernel that times itself can tell a run under compute-sanitizer or Nsight Compute (a shared
/// store and load take 50 times longer under memcheck, 400 times under racecheck) from a graded one, so
/// no lab's kernels may read it.
std::vector<std::string> device_clock_readers(const std::string& ptx);

/// @brief The functions of the PTX @p ptx that read the SM's performance-monitor counters (%pm0 to %pm7,
/// %pm0_64 ...: what a profiler counts, or nothing) or the driver's environment registers (%envreg0 to
/// %envreg31, set by the driver, and by a tool's), demangled, each once, in order, read as
/// device_timer_readers reads the global timer. What they hold can differ under compute-sanitizer, Nsight
/// Compute or the grader's counter sampling, so a kernel could tell an observed run from the others with
/// them, and no lab's kernels may read them.
std::vector<std::string> device_counter_readers(const std::string& ptx);

/// @brief device_timer_readers, device_clock_readers and device_counter_readers of @p ptx, read in one pass
/// over its functions.
struct SpecialRegisterReaders {
    std::vector<std::string> timer;     ///< the global timer's readers
    std::vector<std::string> clock;     ///< an SM clock's readers
    std::vector<std::string> counters;  ///< the performance-monitor counters' and environment registers' readers
};
SpecialRegisterReaders special_register_readers(const std::string& ptx);

/// @brief A course function a lab may call from one function only (rubric "audit_allow_only_in": Lab 06's
/// timer, for its detector): the findings for every host function of @p host_code whose code refers to a
/// symbol whose demangled name matches @p callee but whose own demangled name does not start with
/// @p caller (the function, its clones and its lambdas: "lab06::detect_conflict_ways("), and for any
/// reference to such a symbol from data (@p relocations: `objdump -r`; a function pointer kept there could
/// be called from anywhere).
std::vector<std::string> calls_outside(const std::vector<HostFunction>& host_code, const std::string& relocations,
                                       const std::string& callee, const std::string& caller);

/// @brief Where the PTX @p ptx uses an instruction a lab refuses: for each of @p mnemonics (an opcode's
/// first part: "shfl", "mma", "wgmma"), the functions that name it as an instruction (the mnemonic, then
/// white space or none, then a '.', not the end of a longer name), demangled, as {mnemonic, function}, each
/// pair once, in the order met. A function's text is read as written (a comment's included, like
/// device_timer_readers) and as ptxas reads it (comments gone: "shfl/ * * /.sync" counts).
std::vector<std::pair<std::string, std::string>> device_instruction_users(const std::string& ptx,
                                                                          const std::vector<std::string>& mnemonics);

/// @brief What the preprocessed source @p ii (nvcc --keep's .ii of the lab's file) holds on the lines of
/// the lab's own .cu files (the course's file and the student's regions, told by the line markers; not the
/// headers) that a region may not hold, however the source spelled it: inline assembly (asm, __asm,
/// __asm__, made for instance by a header's token-pasting macro, `__CONCAT(__as, m__)`), preprocessor
/// lines other than `#pragma unroll` (a _Pragma made the same way), `extern "C"`, and attributes other than
/// the harmless ones (CUDA's qualifiers, the standard's, GCC's that inline, warn, align or describe), in
/// GCC's namespace or none: never one that runs, renames or moves code or hands a string to the assembler.
/// Each as "what (file, line N)", once.
std::vector<std::string> region_code_in_preprocessed(const std::string& ii);

/// @brief Where the preprocessed source @p ii (nvcc --keep's .ii) opens or closes braces on the lines of the
/// lab's .cu files that the source @p source it was made of (the .cu compiled, at @p source_path: the
/// course's file with the student's regions, and the `#line` directives naming where each part comes from)
/// does not show: a macro of the headers whose expansion is unbalanced (glibc's pthread_cleanup_push opens
/// a block its pop closes), with which a region can close its function or namespace however the rules on
/// the source counted. Compared wherever a line of the source starts outside every parenthesis (the
/// preprocessor puts a macro's whole expansion on the line its call starts). One line, or none.
std::vector<std::string> unbalanced_macro_braces(const std::string& ii, const std::string& source,
                                                 const std::string& source_path);

/// @brief The source file the preprocessed source @p ii was made of, named by its first line marker
/// (`# 0 "GRADED.cu"`), its escapes read; "" when it has none.
std::string preprocessed_source_path(const std::string& ii);

/// @brief Parses `nm -P -g` output into symbols.
std::vector<ObjectSymbol> parse_nm_posix(const std::string& text);

/// @brief The functions in `objdump -dr --no-show-raw-insn` output.
std::vector<HostFunction> parse_objdump(const std::string& text);

}  // namespace grading
