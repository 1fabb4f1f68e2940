// The audit of a lab's object (see audit.hpp).
#include "audit.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <map>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

namespace grading {

namespace {
// The part of nvcc's glue that registers a file's device code with the CUDA runtime (after "__cuda"): the
// allow-list takes it, and registration_outside_nvcc() lets only nvcc's own code refer to it.
constexpr const char* kRegistrationGlue =
    "RegisterFatBinary|RegisterFatBinaryEnd|RegisterFunction|RegisterVar|RegisterManagedVar|UnregisterFatBinary|"
    "InitModule";
}  // namespace

const std::vector<AllowRule>& import_allow_list() {
    static const std::vector<AllowRule> rules = {
        // What nvcc's generated code calls to register a file's kernels and launch them with <<<>>>.
        {std::string("__cuda(") + kRegistrationGlue +
             "|PushCallConfiguration|PopCallConfiguration|GetKernel|LaunchKernel)",
         "nvcc's own glue: registering the file's kernels (from nvcc's own code only: registration_outside_nvcc), "
         "and <<<>>> launches"},
        {"atexit", "nvcc's glue unregisters the file's kernels at exit (from nvcc's own code only)"},
        {"_GLOBAL_OFFSET_TABLE_", "the linker's table for position-independent code"},
        // Kernel launches and kernel attributes.
        {R"(cuda(LaunchKernel|LaunchKernelExC|LaunchCooperativeKernel|FuncGetAttributes|FuncSetAttribute|)"
         R"(FuncSetCacheConfig|GetKernel)(_ptsz)?)",
         "kernel launches (also cooperative launches for grid-wide cooperative_groups) and kernel attributes "
         "(e.g. more than 48 KB of dynamic shared memory)"},
        // Device memory.
        {R"(cuda(Malloc|Free|MallocAsync|FreeAsync|MallocPitch|Malloc3D|Memset|MemsetAsync|Memset2D|Memset2DAsync|)"
         R"(Memset3D|Memset3DAsync|Memcpy|MemcpyAsync|Memcpy2D|Memcpy2DAsync|Memcpy3D|Memcpy3DAsync|MemcpyToSymbol|MemcpyToSymbolAsync|MemcpyFromSymbol|)"
         R"(MemcpyFromSymbolAsync|MemcpyPeer|MemcpyPeerAsync|GetSymbolAddress|GetSymbolSize|MemGetInfo)(_ptds|_ptsz)?)",
         "device memory: allocate, set, copy, and __constant__ / __device__ symbols"},
        // Occupancy and device queries.
        {R"(cuda(OccupancyMaxActiveBlocksPerMultiprocessor|OccupancyMaxActiveBlocksPerMultiprocessorWithFlags|)"
         R"(OccupancyAvailableDynamicSMemPerBlock|OccupancyMaxPotentialClusterSize|OccupancyMaxActiveClusters|)"
         R"(GetDevice|GetDeviceCount|DeviceGetAttribute|GetDeviceProperties|GetDeviceProperties_v2|DeviceGetLimit|)"
         R"(DriverGetVersion|RuntimeGetVersion|DeviceGetCacheConfig|DeviceGetSharedMemConfig))",
         "occupancy and device queries, to size a grid for the GPU it runs on"},
        // Errors and waiting for the default stream.
        {R"(cuda(GetLastError|PeekAtLastError|GetErrorName|GetErrorString|DeviceSynchronize|StreamSynchronize))",
         "error checks (CUDA_CHECK) and waiting for the GPU"},
        // Math.
        {R"((std::)?(a?(sin|cos|tan)h?|sincos|atan2|exp|exp2|expm1|log|log2|log10|log1p|pow|sqrt|cbrt|hypot|fabs|floor|ceil|)"
         R"(trunc|round|lround|llround|rint|lrint|llrint|nearbyint|nexttoward|scalbln|fmod|remainder|remquo|fmin|fmax|fdim|fma|frexp|ldexp|modf|)"
         R"(scalbn|ilogb|logb|copysign|nextafter|erf|erfc|tgamma|lgamma|abs|labs|llabs)[fl]?(\(.*\))?)",
         "math functions"},
        // The C++ runtime: exceptions, function-local statics, new and delete, string and memory helpers.
        {R"(__cxa_(guard_acquire|guard_release|guard_abort|allocate_exception|free_exception|init_primary_exception|throw|begin_catch|)"
         R"(end_catch|rethrow|get_exception_ptr|call_unexpected|pure_virtual|deleted_virtual|bad_cast|bad_typeid|)"
         R"(throw_bad_array_new_length|atexit)|__dynamic_cast|__dso_handle|__gxx_personality_v0|_Unwind_Resume|__stack_chk_fail|)"
         R"(mem(cpy|move|set|cmp|chr)|str(len|nlen|cmp|ncmp|cpy|ncpy|cat|ncat|chr|rchr|str|spn|cspn|pbrk)|)"
         R"(__(popcount|parity|clz|ctz|ffs|bswap)[sdt]i2|__(mem(cpy|move|set)|str(n?cpy|n?cat)|stpn?cpy)_chk)",
         "the C++ runtime: exceptions, function-local statics, dynamic_cast, memcpy and the C string functions, "
         "the compiler's helpers for bit builtins (__builtin_popcount) (assert is compiled out: the labs are "
         "built with NDEBUG)"},
        {R"(operator (new|delete)(\[\])?\(.*\)|std::nothrow)",
         "new and delete (std::vector, std::string, std::function; std::stable_sort's buffer asks new(std::nothrow))"},
        {R"((printf|__printf_chk|puts|putchar))",
         "printing to standard output, for debugging (it carries nothing to the grader)"},
        {R"((v?s(n)?printf|__v?s(n)?printf_chk))",
         "formatting into memory (std::to_string of a floating-point value, a message for an exception)"},
        {R"(std::(__throw_[a-z_]+|_Function_base::.*|_Rb_tree_(insert_and_rebalance|increment|decrement|)"
         R"(rebalance_for_erase)|_Hash_bytes|__detail::_Prime_rehash_policy::.*|__detail::_List_node_base::.*)(\(.*\))?.*)",
         "the standard library's out-of-line helpers for containers and std::function"},
        {R"(std::(runtime_error|logic_error|invalid_argument|out_of_range|length_error|domain_error|range_error|)"
         R"(overflow_error|underflow_error|exception|bad_alloc|bad_array_new_length|bad_function_call|nested_exception|)"
         R"(__exception_ptr::exception_ptr)::.*|std::(current_exception|rethrow_exception|uncaught_exceptions?)\(.*\))",
         "standard exceptions (e.g. std::invalid_argument for a bad argument), std::exception_ptr and nested "
         "exceptions"},
        {R"(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::.*)",
         "std::string (exception messages)"},
        {R"((typeinfo|typeinfo name|vtable|VTT) for (std::|__cxxabiv1::).*)",
         "type information of standard types (exceptions, std::function)"},
        {R"((typeinfo|typeinfo name) for (bool|char|signed char|unsigned char|wchar_t|char8_t|char16_t|char32_t|)"
         R"(short|unsigned short|int|unsigned int|long|unsigned long|long long|unsigned long long|float|double|)"
         R"(long double|decltype\(nullptr\))( const)?\*?( const)?\*?)",
         "type information of fundamental types (throw 1; catch (int))"},
    };
    return rules;
}

std::string demangle(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? std::string(d.get()) : name;
}

std::string refusal_reason(const std::string& s) {
    struct Reason {
        const char* pattern;
        const char* why;
    };
    static const std::vector<Reason> reasons = {
        {R"(.*\b(exit|_exit|_Exit|quick_exit|abort|std::terminate|std::exit|std::quick_exit)\b.*)",
         "ends the process; a lab returns to the grader"},
        {R"(.*\b(f?open|open64|openat|creat|fopen64|fdopen|freopen|write|writev|pwrite|fwrite|fputs|fputc|fprintf|)"
         R"(vfprintf|dprintf|fflush|close|fclose|read|fread|fgets|unlink|rename|mkdir|stdout|stderr|stdin|)"
         R"(std::basic_(of|if|f)stream|std::basic_filebuf|std::basic_ostream|std::basic_istream|std::cout|std::cerr|)"
         R"(std::clog|std::ios_base)\b.*)",
         "file or stream I/O; a lab reads and writes only the device memory it is given (printf to the console is "
         "allowed for debugging)"},
        {R"(.*\b(dlopen|dlsym|dlvsym|dlmopen|dladdr|dlclose|dlerror)\b.*)", "loads libraries at run time"},
        {R"(.*\b(getenv|secure_getenv|setenv|putenv|unsetenv|environ|__environ)\b.*)", "reads or changes the environment"},
        {R"(.*\bcuda(StreamCreate\w*|StreamDestroy|StreamBeginCapture\w*|StreamEndCapture|Graph\w*|EventCreate\w*|)"
         R"(EventDestroy|ThreadExchangeStreamCaptureMode|LaunchHostFunc|StreamAddCallback)\b.*)",
         "creates streams, graphs or events; a lab launches its work on the default stream"},
        {R"(.*\b(cudaEvent\w+|clock_gettime|gettimeofday|time|clock|times|std::chrono::.*now|__rdtsc|rdtsc|rdtscp)\b.*)",
         "reads a timer; the grader times the lab"},
        {R"(.*\b(cub::|cublas|thrust::|cusparse|cufft|curand|cudnn).*)",
         "a device-wide library call; the lab is to write the kernel itself"},
        {R"(.*\b(fork|vfork|execv\w*|execl\w*|system|popen|posix_spawn\w*|clone|pthread_create|std::thread|)"
         R"(setsid|setpgid|daemon)\b.*)",
         "starts a process or a thread"},
        {R"(.*\b(kill|raise|signal|sigaction|alarm|setitimer)\b.*)", "sends or handles signals"},
        {R"(.*\b(mmap|munmap|mprotect|syscall|ptrace|prctl|ioctl)\b.*)", "a raw system facility"},
        {R"(.*\bcuda(SetDevice|SetDeviceFlags|SetValidDevices|InitDevice|DeviceReset|DeviceSetLimit|)"
         R"(DeviceSetCacheConfig|DeviceSetSharedMemConfig|DeviceSetMemPool|DeviceSetGraphMemAttribute|)"
         R"(CtxResetPersistingL2Cache|DeviceFlushGPUDirectRDMAWrites)\b.*)",
         "changes the GPU or its settings; a lab runs on the GPU the grader chose, as the grader set it up "
         "(cudaGetDevice and cudaDeviceGetLimit read them)"},
        {R"(cuda(MallocManaged|MallocHost|HostAlloc|HostRegister|MemAdvise\w*|MemPrefetchAsync\w*)\b.*)",
         "managed or host memory; a lab works on the device memory it is given, and its own scratch from cudaMalloc"},
        {R"(lab\d\d::.*)", "is another part of the lab's namespace that the lab's file does not define (the grader's own "
                          "code, such as its baselines, is not for a lab to call)"},
        {R"(course::.*)", "a course helper that this lab may not use"},
    };
    static const std::vector<std::regex> compiled = [] {
        std::vector<std::regex> out;
        for (const auto& r : reasons) out.emplace_back(r.pattern);
        return out;
    }();
    for (std::size_t i = 0; i < reasons.size(); ++i)
        if (std::regex_match(s, compiled[i])) return reasons[i].why;
    return "not on the course's allow-list of calls (kernel launches, device memory, occupancy and device queries, "
           "math, the C++ runtime)";
}

namespace {
bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// The outermost namespace a mangled C++ name belongs to ("std", "lab01", "course", ...), read off the
// Itanium mangling: "" for a C name or a name at global scope. Special names (vtable, typeinfo, guard
// variable) and local entities are traced to the name they belong to.
std::string top_namespace(const std::string& m) {
    if (!starts_with(m, "_Z")) return "";
    std::size_t i = 2;
    // A thunk's call offset: h <offset> _, or v <offset> _ <virtual offset> _ (an offset may be negative, n).
    const auto call_offset = [&m](std::size_t k) -> std::size_t {
        const auto number = [&m](std::size_t at) {
            if (at < m.size() && m[at] == 'n') ++at;
            while (at < m.size() && std::isdigit(static_cast<unsigned char>(m[at]))) ++at;
            return at < m.size() && m[at] == '_' ? at + 1 : std::string::npos;
        };
        if (k < m.size() && m[k] == 'h') return number(k + 1);
        if (k < m.size() && m[k] == 'v') {
            const std::size_t at = number(k + 1);
            return at == std::string::npos ? at : number(at);
        }
        return std::string::npos;
    };
    if (m.compare(i, 2, "Th") == 0 || m.compare(i, 2, "Tv") == 0) {  // a thunk of the function that follows
        i = call_offset(i + 1);
    } else if (m.compare(i, 2, "Tc") == 0) {  // a covariant thunk: two call offsets
        i = call_offset(i + 2);
        if (i != std::string::npos) i = call_offset(i);
    } else {
        // Special names of the entity that follows: vtable, typeinfo and its name, VTT, guard variable, a
        // reference's temporary, a construction vtable (the complete class comes first).
        for (const char* special : {"TV", "TI", "TS", "TT", "GV", "GR", "TC"})
            if (m.compare(i, 2, special) == 0) {
                i += 2;
                break;
            }
    }
    if (i == std::string::npos) return "";
    if (i < m.size() && m[i] == 'Z') ++i;  // a local entity: the enclosing function's name follows
    if (i < m.size() && m[i] == 'N') {
        ++i;
        while (i < m.size() && (m[i] == 'r' || m[i] == 'V' || m[i] == 'K')) ++i;
        if (i < m.size() && (m[i] == 'R' || m[i] == 'O')) ++i;
    }
    if (m.compare(i, 2, "St") == 0) return "std";
    if (i + 1 < m.size() && m[i] == 'S' && std::islower(static_cast<unsigned char>(m[i + 1]))) return "std";
    std::size_t len = 0, j = i;
    while (j < m.size() && std::isdigit(static_cast<unsigned char>(m[j]))) len = len * 10 + (m[j++] - '0');
    if (j == i || j + len > m.size()) return "";
    return m.substr(j, len);
}

// The symbol a definition stands for. A catch clause by type (catch (const std::invalid_argument&)) makes
// the exception table point to the type's typeinfo through a weak copy named "DW.ref._ZTI<type>", which
// the linker merges like inline code; it is judged as that typeinfo: a standard type's or the lab's own.
std::string owner_of(const std::string& name) {
    const std::string table_ref = "DW.ref.";
    return starts_with(name, table_ref + "_ZTI") ? name.substr(table_ref.size()) : name;
}

// A weak definition of inline library code every object may carry (its copy of an inline function or
// a template instance); the linker keeps one copy of identical code, so it replaces nothing.
bool library_weak_definition(const ObjectSymbol& s) {
    if (s.name == "DW.ref.__gxx_personality_v0") return true;
    // The exception table's pointer to a fundamental type's typeinfo (catch (int), catch (const char*)).
    static const std::regex fundamental(R"(_ZTI(P|K)*(b|c|a|h|w|Du|Ds|Di|s|t|i|j|l|m|x|y|f|d|e|Dn))");
    if (starts_with(s.name, "DW.ref.") && std::regex_match(owner_of(s.name), fundamental)) return true;
    // The typeinfo of a type of CUDA's own at global scope (throw cudaErrorInvalidValue; catch (cudaError_t),
    // or a vector type): the object's weak copy and the exception table's pointer to it.
    static const std::regex cuda_type(R"((DW\.ref\.)?_ZT[IS](P|K)*\d+(cuda[A-Z]\w*|CU\w+|dim3|)"
                                      R"((u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]))");
    if (s.weak() && std::regex_match(s.name, cuda_type)) return true;
    const std::string ns = top_namespace(owner_of(s.name));
    for (const char* allowed : {"std", "__gnu_cxx", "course", "cooperative_groups", "cuda", "__cxxabiv1"})
        if (ns == allowed) return true;
    return false;
}
}  // namespace

bool is_device_function_stub(const HostFunction& f, const std::string& lab_id, const std::set<std::string>* referenced) {
    if (top_namespace(f.name) != "lab" + lab_id || f.mnemonics.size() > 12) return false;
    // A stand-in is never called: host code cannot call a __device__ function. One that the object's code
    // or data refers to (a call, a function pointer, a constructor's entry) is the lab's own, however
    // shaped.
    if (referenced && referenced->count(f.name)) return false;
    return !f.relocations.empty() &&
           std::all_of(f.relocations.begin(), f.relocations.end(), [](const std::string& r) { return r == "exit"; });
}

AuditFinding audit_symbols(const std::string& lab_id, const std::vector<ObjectSymbol>& symbols,
                           const std::vector<std::string>& extra_allowed, const std::vector<HostFunction>& host_code,
                           const std::set<std::string>& grader_definitions,
                           const std::set<std::string>* referenced) {
    AuditFinding f;
    const std::string stub = "__device_stub__Z";
    std::vector<std::regex> allowed;
    for (const auto& r : import_allow_list()) allowed.emplace_back(r.pattern);
    for (const auto& p : extra_allowed) allowed.emplace_back(p);
    std::set<std::string> seen;
    auto add = [&](const std::string& line) {
        if (!seen.insert(line).second) return;
        f.add(line);
    };
    // exit() is imported by nvcc's host stand-ins of __device__ functions (never called: the function runs
    // on the GPU); any other host code that refers to it is the lab's own call. A function that another
    // one's code points at is no stand-in either, whether by a relocation (@p referenced) or within their
    // section, where a call or a lea to its start needs none (the disassembler names the start: starts).
    std::set<std::string> pointed_at = referenced ? *referenced : std::set<std::string>{};
    if (referenced) {
        std::map<std::string, std::string> section_of;
        for (const auto& fn : host_code) section_of[fn.name] = fn.section;
        for (const auto& fn : host_code)
            for (const auto& t : fn.starts)
                if (const auto it = section_of.find(t); t != fn.name && it != section_of.end() && it->second == fn.section)
                    pointed_at.insert(t);
    }
    bool exit_only_in_stubs = true;
    for (const auto& fn : host_code)
        if (std::find(fn.relocations.begin(), fn.relocations.end(), "exit") != fn.relocations.end() &&
            !is_device_function_stub(fn, lab_id, referenced ? &pointed_at : nullptr))
            exit_only_in_stubs = false;
    for (const auto& s : symbols) {
        const std::string d = demangle(s.name);
        if (s.undefined()) {
            if (s.name == "exit" && exit_only_in_stubs && !host_code.empty()) continue;
            const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::regex& r) {
                return std::regex_match(d, r) || std::regex_match(s.name, r);
            });
            if (!ok) add("calls " + d + ": " + refusal_reason(d));
            continue;
        }
        if (grader_definitions.count(s.name)) {
            add("defines " + d + ", which the grader itself defines: a lab may not replace the grader's code");
            continue;
        }
        if (top_namespace(owner_of(s.name)) == "lab" + lab_id) {
            // CUB or Thrust compiled into the lab's namespace (their headers' *_WRAPPED_NAMESPACE): their device-wide
            // algorithms, which a lab may not call, under the lab's own name.
            if (d.find("::cub::") != std::string::npos || d.find("::thrust::") != std::string::npos)
                add("defines " + d + ": CUB or Thrust compiled into namespace lab" + lab_id +
                    "; device-wide library algorithms are not allowed (the lab does its work in its own kernels)");
            continue;
        }
        // nvcc's host stub of a kernel: __device_stub__Z[N]5labNN... names the kernel it launches.
        if (const auto at = s.name.find(stub); at != std::string::npos) {
            std::string rest = s.name.substr(at + stub.size());
            if (starts_with(rest, "N")) rest = rest.substr(1);
            if (starts_with(rest, "5lab" + lab_id)) continue;
        }
        if (s.weak() && library_weak_definition(s)) continue;
        add("defines " + d + ", outside namespace lab" + lab_id +
            ": a lab may define only its own namespace, never a symbol of the grader, the CUDA runtime or the C "
            "library");
    }
    for (const auto& fn : host_code)
        for (const auto& m : fn.mnemonics) {
            if (m == "syscall" || m == "sysenter" || m == "int80")
                add("host code (" + demangle(fn.name) + ") holds a raw system call: a lab makes no system calls");
            else if (m == "rdtsc" || m == "rdtscp" || m == "rdpid")
                add("host code (" + demangle(fn.name) + ") reads the time-stamp counter: the grader times the lab");
            else if (m == "rdpmc" || m == "tpause" || m == "umwait" || m == "umonitor")
                add("host code (" + demangle(fn.name) + ") holds " + m +
                    " (a performance counter or a timed wait): the grader times the lab");
        }
    return f;
}

namespace {
// The values of `objdump -r`'s records ("OFFSET TYPE VALUE": a symbol with an addend, exit-0x4, or a section
// and an offset, .text+0x210), in order, outside the unwind tables and debug information, which name every
// function and are no reference.
// The records of `objdump -r`, each with the section it is listed under ("RELOCATION RECORDS FOR
// [.text]:", then "OFFSET TYPE VALUE" lines): every reader of relocations reads them here.
struct RelocationRecord {
    std::string section, value;
};

std::vector<RelocationRecord> relocation_records(const std::string& relocations) {
    std::vector<RelocationRecord> out;
    std::istringstream in(relocations);
    std::string line, section;
    const std::regex header(R"(^RELOCATION RECORDS FOR \[(.*)\]:\s*$)");
    const std::regex record(R"(^[0-9a-fA-F]+\s+\S+\s+(\S+)\s*$)");
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, header)) section = m[1].str();
        else if (std::regex_match(line, m, record)) out.push_back({section, m[1].str()});
    }
    return out;
}

// Sections whose relocations are no reference: the unwind tables and debug information name every function.
bool bookkeeping_section(const std::string& section) {
    return starts_with(section, ".eh_frame") || starts_with(section, ".debug") || starts_with(section, ".gcc_except_table");
}

std::vector<std::string> relocation_values(const std::string& relocations) {
    std::vector<std::string> out;
    for (const auto& r : relocation_records(relocations))
        if (!bookkeeping_section(r.section)) out.push_back(r.value);
    return out;
}

// One entry of `objdump -t`: "0000000000000210 l     F .text\t0000000000000040 name": value, seven flag
// characters, section, size, name. A function has F among the flags, a section symbol d, an object O.
struct TableSymbol {
    unsigned long long value = 0, size = 0;
    std::string flags, section, name;
    bool function() const { return flags.find('F') != std::string::npos; }
};

std::vector<TableSymbol> parse_symbol_table(const std::string& symbol_table) {
    std::vector<TableSymbol> out;
    std::istringstream in(symbol_table);
    std::string line;
    const std::regex sym(R"(^([0-9a-fA-F]+) (.{7}) (\S+)\s+([0-9a-fA-F]+)\s+(?:\.hidden\s+)?(\S+)\s*$)");
    std::smatch m;
    while (std::getline(in, line))
        if (std::regex_match(line, m, sym))
            out.push_back({std::stoull(m[1].str(), nullptr, 16), std::stoull(m[4].str(), nullptr, 16), m[2].str(),
                           m[3].str(), m[5].str()});
    return out;
}

// nvcc's glue that registers a file's device code with the CUDA runtime, and atexit, by which its stub
// unregisters it again.
bool registration_glue(const std::string& symbol) {
    static const std::regex glue(std::string("__cuda(") + kRegistrationGlue + ")|atexit");
    return std::regex_match(symbol, glue);
}
}  // namespace

std::vector<std::string> registration_outside_nvcc(const std::vector<HostFunction>& host_code,
                                                   const std::string& relocations, const std::string& symbol_table) {
    // nvcc's stub's own functions, file-local and outside any namespace (a lab's code is in namespace labNN,
    // so its names are never these), each with the glue its part of the registration calls. The names alone
    // are not trusted: assembly could name a function of its own as one of them where the compiler inlined
    // nvcc's (at -O3 only the first two are functions), so each may call only its own part, and the
    // callback, which registers kernels and variables, only when the registration function refers to it.
    static const std::string sti = "_ZL24__sti____cudaRegisterAllv", callback = "_ZL31__nv_cudaEntityRegisterCallbackPPv";
    static const std::map<std::string, std::regex> nvcc_own = {
        {sti, std::regex(std::string("__cuda(") + kRegistrationGlue + ")|atexit")},  // everything, inlined or not
        {"_ZL26__cudaUnregisterBinaryUtilv", std::regex("__cudaUnregisterFatBinary")},
        {callback, std::regex("__cudaRegister(Function|Var|ManagedVar)")},
        {"_ZL32__nv_init_managed_rt_with_modulePPv", std::regex("__cudaInitModule")}};
    std::vector<std::string> out;
    const std::string why = ": only nvcc's own code may register a lab's kernels (device code loaded any other way "
                            "escapes the audit of the lab's PTX), and only it may call atexit (a lab's code runs "
                            "when the lab is called)";
    // The registration function's references: by name, or by a section and an offset (a local function in
    // another section), the function that starts there.
    std::map<std::string, std::string> starts;  // "section+0xOFFSET" -> function
    for (const TableSymbol& t : parse_symbol_table(symbol_table))
        if (t.function()) {
            std::ostringstream at;
            at << t.section << "+0x" << std::hex << t.value;
            starts[at.str()] = t.name;
        }
    bool callback_called = false;
    std::map<std::string, int> times;
    for (const auto& fn : host_code) {
        ++times[fn.name];
        if (fn.name != sti) continue;
        for (const auto* list : {&fn.relocations, &fn.targets})
            for (const auto& target : *list) {
                const auto start = starts.find(target);
                callback_called = callback_called || target == callback || (start != starts.end() && start->second == callback);
            }
    }
    for (const auto& [name, count] : times)
        if (count > 1 && nvcc_own.count(name))
            out.push_back("has " + std::to_string(count) + " functions named as nvcc's " + demangle(name) +
                          " (only assembly names two functions alike)" + why);
    std::size_t in_code = 0;
    for (const auto& fn : host_code) {
        const auto own = nvcc_own.find(fn.name);
        const bool trusted = own != nvcc_own.end() && times[fn.name] == 1 && (fn.name != callback || callback_called);
        std::vector<std::string> named;  // the glue fn refers to that is not its part, each once
        for (const auto& r : fn.relocations) {
            if (!registration_glue(r)) continue;
            ++in_code;
            if (trusted && std::regex_match(r, own->second)) continue;
            if (std::find(named.begin(), named.end(), r) == named.end()) named.push_back(r);
        }
        if (named.empty()) continue;
        std::string list;
        for (std::size_t k = 0; k < named.size(); ++k)
            list += (k == 0 ? "" : k + 1 == named.size() ? " and " : ", ") + named[k];
        if (own == nvcc_own.end() && named == std::vector<std::string>{"__cudaInitModule"}) {
            out.push_back("uses managed memory (a __managed__ variable, which nvcc loads from " + demangle(fn.name) +
                          " with __cudaInitModule): a lab works on the device memory it is given, and its own "
                          "scratch from cudaMalloc");
            continue;
        }
        std::string where = starts_with(fn.name, "_GLOBAL__sub_I_")
                                ? "the initializer of a variable at namespace scope, which runs before main()"
                                : demangle(fn.name);
        if (own != nvcc_own.end())
            where += fn.name == callback && !callback_called
                         ? ", named as nvcc's but not called by its registration function"
                         : ", named as nvcc's, which does not call these";
        out.push_back("has host code (" + where + ") that refers to " + list + why);
    }
    // Every reference in the object, its data's included.
    std::size_t everywhere = 0;
    for (std::string target : relocation_values(relocations)) {
        if (const std::size_t sign = target.find_first_of("+-", 1); sign != std::string::npos) target.resize(sign);
        everywhere += registration_glue(target);
    }
    if (everywhere > in_code)
        out.push_back("holds in its data the address of nvcc's registration glue (__cudaRegisterFatBinary and the like) "
                      "or of atexit" + why);
    return out;
}

namespace {
// The functions of @p ptx, each as {name as written, its text}, in order: a function starts at a line
// whose first directive is .entry or .func (after .visible, .weak or .extern) and runs to the next; text
// before the first is the function "". Header lines are part of their function's text, so nothing is left
// unread (a statement that only mentions ".func" in a comment does not start a function: it starts with
// its opcode).
std::vector<std::pair<std::string, std::string>> ptx_functions(const std::string& ptx) {
    std::vector<std::pair<std::string, std::string>> out{{"", ""}};
    std::istringstream in(ptx);
    std::string line;
    while (std::getline(in, line)) {
        std::size_t at = line.find_first_not_of(" \t");
        bool header = false;
        while (at != std::string::npos && line.compare(at, 1, ".") == 0) {
            std::size_t end = line.find_first_of(" \t(", at);
            if (end == std::string::npos) end = line.size();
            const std::string directive = line.substr(at, end - at);
            if (directive == ".entry" || directive == ".func") {
                header = true;
                at = line.find_first_not_of(" \t", end);
                break;
            }
            if (directive != ".visible" && directive != ".weak" && directive != ".extern") break;
            at = line.find_first_not_of(" \t", end);
        }
        if (header) {
            if (at != std::string::npos && line[at] == '(') {  // .func's return parameter
                const std::size_t close = line.find(')', at);
                at = close == std::string::npos ? line.size() : line.find_first_not_of(" \t", close + 1);
            }
            if (at == std::string::npos) at = line.size();
            std::size_t end = at;
            while (end < line.size() && line[end] != '(' && line[end] != ' ' && line[end] != '\t' && line[end] != ';') ++end;
            out.push_back({line.substr(at, end - at), ""});
        }
        out.back().second += line;
        out.back().second += '\n';
    }
    return out;
}

std::string function_shown(const std::string& function) {
    return function.empty() ? "code outside any function" : demangle(function);
}

// @p text with its comments made spaces, read left to right as ptxas reads them: "//" to the line's end,
// "/*" to the next "*/", whichever opens first; string literals kept whole.
std::string without_comments(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '"') {
            const std::size_t end = text.find('"', i + 1);
            const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
            out.append(text, i, stop - i);
            i = stop;
        } else if (text.compare(i, 2, "//") == 0) {
            const std::size_t end = text.find('\n', i);
            out += ' ';
            i = end == std::string::npos ? text.size() : end;
        } else if (text.compare(i, 2, "/*") == 0) {
            const std::size_t end = text.find("*/", i + 2);
            out += ' ';
            i = end == std::string::npos ? text.size() : end + 2;
        } else {
            out += text[i++];
        }
    }
    return out;
}

// Whether @p text names @p mnemonic as an instruction: followed by '.', with nothing but white space
// between (ptxas reads "shfl .sync" as "shfl.sync"), and not the end of a longer name (a PTX identifier
// holds letters, digits, '_' and '$'; '%' starts a register, '.' a directive or a part of another opcode
// such as wmma.mma).
bool names_instruction(const std::string& text, const std::string& mnemonic) {
    for (std::size_t at = text.find(mnemonic); at != std::string::npos; at = text.find(mnemonic, at + 1)) {
        if (at > 0) {
            const unsigned char before = static_cast<unsigned char>(text[at - 1]);
            if (std::isalnum(before) || before == '_' || before == '$' || before == '%' || before == '.') continue;
        }
        std::size_t next = at + mnemonic.size();
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
        if (next < text.size() && text[next] == '.') return true;
    }
    return false;
}
}  // namespace

std::vector<std::string> calls_outside(const std::vector<HostFunction>& host_code, const std::string& relocations,
                                       const std::string& callee, const std::string& caller) {
    const std::regex wanted(callee);
    const auto matches = [&](std::string symbol) {
        if (const std::size_t sign = symbol.find_first_of("+-", 1); sign != std::string::npos) symbol.resize(sign);
        return std::regex_match(demangle(symbol), wanted);
    };
    // The callee as a reader writes it: its pattern's "\\(.*\\)" as "(...)".
    std::string callee_shown = callee;
    if (const std::size_t p = callee_shown.find("\\(.*\\)"); p != std::string::npos) callee_shown.replace(p, 6, "(...)");
    std::vector<std::string> out;
    for (const auto& fn : host_code) {
        const std::string shown = demangle(fn.name);
        if (starts_with(shown, caller)) continue;
        if (std::any_of(fn.relocations.begin(), fn.relocations.end(), matches))
            out.push_back("calls " + callee_shown + " from " + shown + ": in this lab only " + caller + "...) may");
    }
    // References from data: every section's records but code's and the bookkeeping's.
    for (const auto& [section, value] : relocation_records(relocations))
        if (!starts_with(section, ".text") && !bookkeeping_section(section) && matches(value))
            out.push_back("keeps the address of " + callee_shown + " in data (" + section + "): in this lab only " +
                          caller + "...) may call it");
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

SpecialRegisterReaders special_register_readers(const std::string& ptx) {
    SpecialRegisterReaders out;
    const auto add = [](std::vector<std::string>& list, const std::string& name) {
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    for (const auto& [function, text] : ptx_functions(ptx)) {
        // Anywhere in the function, a comment's text included: ptxas reads a block comment that holds a
        // `//` (`/* // */ mov.u64 %rd1, %globaltimer;`) as ending before the read, and the compiler's own
        // PTX never names a special register in a comment. A name's start stands for all its forms
        // (%clock: %clock_hi, %clock64; %pm: %pm0 ... %pm7_64).
        const auto names = [&text = text](const char* special) { return text.find(special) != std::string::npos; };
        if (!names("%globaltimer") && !names("%clock") && !names("%pm") && !names("%envreg")) continue;
        const std::string shown = function_shown(function);
        if (names("%globaltimer")) add(out.timer, shown);
        if (names("%clock")) add(out.clock, shown);
        if (names("%pm") || names("%envreg")) add(out.counters, shown);
    }
    return out;
}

std::vector<std::string> device_timer_readers(const std::string& ptx) { return special_register_readers(ptx).timer; }

std::vector<std::string> device_clock_readers(const std::string& ptx) { return special_register_readers(ptx).clock; }

std::vector<std::string> device_counter_readers(const std::string& ptx) { return special_register_readers(ptx).counters; }

namespace {
// @p text with the names of its .file directives blanked: a line `.file N "PATH"` (with nvcc's optional
// timestamp and size), nothing else on it, names the source's path, which the student chose (a folder
// `shfl.v1/` is no shuffle). Any other quote is left as it is, so that no comment can pass for a string.
std::string without_file_names(const std::string& text) {
    static const std::regex file_line(R"re(([ \t]*\.file[ \t]+[0-9]+[ \t]+)"[^"]*"((?:[ \t]*,[ \t]*[0-9]+)*[ \t]*;?[ \t]*\r?))re");
    std::string out;
    out.reserve(text.size());
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, file_line)) line = m[1].str() + "\"\"" + m[2].str();
        out += line;
        out += '\n';
    }
    if (!text.empty() && text.back() != '\n' && !out.empty()) out.pop_back();
    return out;
}
}  // namespace

std::vector<std::pair<std::string, std::string>> device_instruction_users(const std::string& ptx,
                                                                          const std::vector<std::string>& mnemonics) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [function, written] : ptx_functions(ptx)) {
        const std::string text = without_file_names(written);
        // The text as written (comments included, as for the timer) and as ptxas reads it (comments gone,
        // so that "shfl/**/.sync" and "shfl\n.sync" count too).
        const std::string code = without_comments(text);
        for (const auto& m : mnemonics) {
            if (m.empty() || !(names_instruction(text, m) || names_instruction(code, m))) continue;
            const std::pair<std::string, std::string> use{m, function_shown(function)};
            if (std::find(out.begin(), out.end(), use) == out.end()) out.push_back(use);
        }
    }
    return out;
}

namespace {
// Attributes that run code, rename or move it, or hand their string to the assembler as it is written
// (section and symver names: a newline there starts an assembler line of the region's making).
bool refused_attribute(const std::string& name) {
    for (const char* a : {"constructor", "destructor", "alias", "weakref", "ifunc", "section", "init_priority",
                          "visibility", "weak", "cleanup", "symver", "copy", "naked", "retain", "externally_visible",
                          "no_reorder", "patchable_function_entry", "target_clones"})
        if (name == a) return true;
    return false;
}

// The attributes a lab's lines may carry, however a macro spelled them: what CUDA's qualifiers expand to
// (host_defines.h: __global__ is __attribute__((global)), __align__(n) is aligned(n), ...), the
// standard ones, and GCC's that only inline, warn, align or describe. Any other is refused, so an attribute
// GCC learns later is refused until it is read and listed here.
bool allowed_attribute(const std::string& name) {
    static const std::set<std::string> allowed = {
        // CUDA's qualifiers
        "host", "device", "global", "shared", "constant", "managed", "grid_constant", "launch_bounds", "maxnreg",
        "local_maxnreg", "cluster_dims", "block_size", "nv_inline_hint", "nv_pure", "tile_global", "tile",
        "tile_builtin", "device_builtin", "device_builtin_texture_type", "device_builtin_surface_type",
        "cudart_builtin",
        // the standard's
        "noreturn", "carries_dependency", "deprecated", "fallthrough", "maybe_unused", "nodiscard", "likely",
        "unlikely", "no_unique_address", "assume",
        // GCC's that inline, warn, align or describe
        "aligned", "always_inline", "noinline", "gnu_inline", "artificial", "flatten", "noclone", "noipa", "hot",
        "cold", "pure", "const", "nothrow", "leaf", "unused", "used", "warn_unused_result", "nonnull",
        "returns_nonnull", "malloc", "alloc_size", "alloc_align", "assume_aligned", "format", "format_arg",
        "sentinel", "access", "nonstring", "packed", "may_alias", "vector_size", "mode", "unavailable",
        "warning", "error", "warn_if_not_aligned", "designated_init", "transparent_union"};
    return allowed.count(name) != 0;
}
}  // namespace

bool harmless_attribute(const std::string& name) { return allowed_attribute(name) && !refused_attribute(name); }

namespace {

// An attribute's bracketed list being read: the list of __attribute__((...)) or __declspec(...) ('(') or of
// [[...]] ('[', however far apart its brackets are), which GCC's preprocessed output may spread over several
// lines (a macro's arguments from the lab's file between line markers: `__attribute__((launch_bounds(` /
// `# 32 "lab.cu"` / `kThreads` / ... / `)))`). The state carries over from one line to the next.
struct AttributeList {
    bool open = false;          // a list is being read
    char up = '(', down = ')';  // its own brackets
    int names_at = 2;           // the depth of its brackets at which names are attributes' (1 for __declspec)
    int depth = 0, parens = 0;  // its brackets; for [[...]], the parentheses inside them
    bool after_using = false;   // `using NS :` names NS, not an attribute

    void start(char bracket, int names_depth, int depth_before = 0) {
        open = true;
        up = bracket;
        down = bracket == '(' ? ')' : ']';
        names_at = names_depth;
        depth = depth_before;
        parens = 0;
        after_using = false;
    }
};

// Reads list @p a on from line[k]: every name in it, at any depth, to name(n, attribute) (__constructor__
// read as constructor), where attribute says that n stands where an attribute's name does (its arguments
// and a namespace's prefix do not: gnu:: and `using gnu:` name a namespace). String and character
// literals are skipped, brackets in them included, and so are numbers (1'024). Returns the index just past
// the bracket that closes the list (then !a.open), or std::string::npos when the line ends first.
template <class OnName>
std::size_t read_attribute_list(AttributeList& a, const std::string& line, std::size_t k, OnName&& name) {
    while (k < line.size()) {
        const char c = line[k];
        if (c == a.up) {
            ++a.depth, ++k;
        } else if (c == a.down) {
            ++k;
            if (--a.depth == 0) {
                a.open = false;
                return k;
            }
        } else if (a.up == '[' && (c == '(' || c == ')')) {
            a.parens += c == '(' ? 1 : -1;
            ++k;
        } else if (c == '"' || c == '\'') {
            std::size_t e = k + 1;
            while (e < line.size() && line[e] != c) e += line[e] == '\\' ? 2 : 1;
            k = e + 1;
        } else if (std::isdigit(static_cast<unsigned char>(c))) {
            while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '\'' ||
                                       line[k] == '.' || line[k] == '_'))
                ++k;
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            std::size_t e = k;
            while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
            std::string n = line.substr(k, e - k);
            // A literal's prefix or suffix (R"x(...)x", u8"", ""_s): a raw string would have to be read as
            // the compiler reads it, and no attribute of a lab's needs one; refused, whatever follows.
            if ((e < line.size() && (line[e] == '"' || line[e] == '\'')) || (k > 0 && (line[k - 1] == '"' || line[k - 1] == '\''))) {
                name("literal " + n, false);
                k = e;
                continue;
            }
            if (n.size() > 4 && n.compare(0, 2, "__") == 0 && n.compare(n.size() - 2, 2, "__") == 0)
                n = n.substr(2, n.size() - 4);
            // A namespace's prefix: `::` after it (on the same line; a prefix whose `::` stands on the next
            // line is read as an attribute's name, and refused unless listed).
            const std::size_t next = line.find_first_not_of(" \t", e);
            const bool prefix = next != std::string::npos && line.compare(next, 2, "::") == 0;
            bool attribute = a.depth == a.names_at && a.parens == 0 && !prefix;
            if (attribute && a.up == '[' && n == "using") {
                a.after_using = true;
                attribute = false;
            } else if (attribute && a.after_using) {
                a.after_using = false;
                attribute = false;
                name("namespace " + n, false);
            }
            // Only where an attribute's name stands: inside its arguments (`launch_bounds(Launch::kThreads)`,
            // `aligned(alignof(std::uint32_t))`) a qualified name is an expression's.
            if (prefix && a.depth == a.names_at && a.parens == 0) name("namespace " + n, false);
            name(n, attribute);
            k = e;
        } else {
            ++k;
        }
    }
    return std::string::npos;
}
}  // namespace

namespace {
// The lexing both readers of preprocessed lines share (BraceReader, region_code_in_preprocessed), so that
// they cannot read one line two ways.

// The end of the string or character literal whose opening quote is at @p q (its closing quote, escapes
// read; the line's end when it has none).
std::size_t quoted_end(const std::string& line, std::size_t q) {
    std::size_t j = q + 1;
    while (j < line.size() && line[j] != line[q]) j += line[j] == '\\' ? 2 : 1;
    return std::min(j + 1, line.size());
}

// True when @p line has a number starting at @p i (a digit, or a point before one).
bool number_starts(const std::string& line, std::size_t i) {
    const auto digit = [&](std::size_t k) { return k < line.size() && std::isdigit(static_cast<unsigned char>(line[k])); };
    return digit(i) || (line[i] == '.' && digit(i + 1));
}

// The end of the number starting at @p i, read whole as a pp-number: a digit separator (1'000) opens no
// character literal, and an exponent's sign belongs to it.
std::size_t number_end(const std::string& line, std::size_t i) {
    std::size_t j = i + 1;
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_' || line[j] == '.' ||
                               line[j] == '\'' ||
                               ((line[j] == '+' || line[j] == '-') && std::strchr("eEpP", line[j - 1]) != nullptr)))
        ++j;
    return j;
}

// The end of the identifier starting at @p i.
std::size_t identifier_end(const std::string& line, std::size_t i) {
    std::size_t j = i;
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '_')) ++j;
    return j;
}

// What identifier @p id is when a quote follows it right away: 2 a raw string's prefix (R, LR, uR, UR, u8R,
// and only before "), 1 an encoding prefix (L, u, U, u8), 0 neither. @p suffix: the identifier starts where
// a literal ended, so it is that literal's suffix (""R, a user-defined literal), never the prefix of the
// next: the compiler reads ""R"(" as ""R then the ordinary string "(".
int literal_prefix(const std::string& id, char quote, bool suffix) {
    if (suffix) return 0;
    if (quote == '"' && (id == "R" || id == "LR" || id == "uR" || id == "UR" || id == "u8R")) return 2;
    return id == "L" || id == "u" || id == "U" || id == "u8" ? 1 : 0;
}

// Reads C++ a line at a time as the compiler does, for its braces: comments, string and character literals
// (raw ones across lines too), numbers and preprocessor lines aside. The braces a line opens less those it
// closes (digraphs too), and the parentheses open before it.
class BraceReader {
public:
    long parens = 0;
    /// The braces @p line opens less those it closes.
    long read(const std::string& line) {
        long braces = 0;
        std::size_t i = 0;
        if (directive_) {  // a preprocessor line's continuation
            directive_ = !line.empty() && line.back() == '\\';
            return 0;
        }
        if (!comment_ && raw_close_.empty()) {
            const std::size_t first = line.find_first_not_of(" \t\r\f\v");
            if (first != std::string::npos && line[first] == '#') {
                directive_ = line.back() == '\\';
                return 0;
            }
        }
        std::size_t literal_end = std::string::npos;  // where the last literal on this line ended
        while (i < line.size()) {
            if (comment_) {
                const std::size_t end = line.find("*/", i);
                if (end == std::string::npos) return braces;
                i = end + 2;
                comment_ = false;
                continue;
            }
            if (!raw_close_.empty()) {
                const std::size_t end = line.find(raw_close_, i);
                if (end == std::string::npos) return braces;
                i = end + raw_close_.size();
                raw_close_.clear();
                continue;
            }
            const char c = line[i], next = i + 1 < line.size() ? line[i + 1] : '\0';
            if (c == '/' && next == '/') return braces;
            if (c == '/' && next == '*') {
                comment_ = true;
                i += 2;
            } else if (c == '"' || c == '\'') {
                i = literal_end = quoted_end(line, i);
            } else if (number_starts(line, i)) {
                i = number_end(line, i);
            } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                const std::size_t j = identifier_end(line, i);
                const int prefix = j < line.size() ? literal_prefix(line.substr(i, j - i), line[j], i == literal_end) : 0;
                i = j;
                if (prefix == 2) {
                    const std::size_t open = line.find('(', j + 1);
                    if (open == std::string::npos) return braces;
                    const std::string close = ")" + line.substr(j + 1, open - j - 1) + "\"";
                    const std::size_t end = line.find(close, open + 1);
                    if (end == std::string::npos) {
                        raw_close_ = close;
                        return braces;
                    }
                    i = literal_end = end + close.size();
                } else if (prefix == 1) {
                    i = literal_end = quoted_end(line, j);
                }
            } else {
                if (c == '{' || (c == '<' && next == '%')) ++braces;
                if (c == '}' || (c == '%' && next == '>')) --braces;
                if (c == '(') ++parens;
                if (c == ')') --parens;
                i += (c == '<' && next == '%') || (c == '%' && next == '>') ? 2 : 1;
            }
        }
        return braces;
    }

private:
    bool comment_ = false, directive_ = false;
    std::string raw_close_;
};

// A file name as a line marker or #line directive spells it, its escapes read (\\ and \").
std::string unescaped(const std::string& spelled) {
    std::string out;
    for (std::size_t i = 0; i < spelled.size(); ++i) out += spelled[i] == '\\' && i + 1 < spelled.size() ? spelled[++i] : spelled[i];
    return out;
}

// A line marker of preprocessed source (# N "file" [flags], or #line N "file"): true, with its line number
// and file, for one.
bool line_marker(const std::string& line, long& number, std::string& file) {
    static const std::regex marker(R"(^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)\".*)");
    std::smatch m;
    if (line.compare(0, 1, "#") != 0 || !std::regex_match(line, m, marker)) return false;
    number = std::stol(m[1].str());
    file = unescaped(m[2].str());
    return true;
}
}  // namespace

std::string preprocessed_source_path(const std::string& ii) {
    long number = 0;
    std::string file;
    return line_marker(ii.substr(0, ii.find('\n')), number, file) ? file : "";
}

std::vector<std::string> unbalanced_macro_braces(const std::string& ii, const std::string& source,
                                                 const std::string& source_path) {
    // The source, line by line: braces, the parentheses open before each line, and the file and line each
    // stands for (its #line directives: the course's file, the student's regions).
    std::vector<long> before{0};  // the braces opened less closed before each line (and after the last)
    std::vector<long> parens_before;
    std::map<std::pair<std::string, long>, std::vector<std::size_t>> lines_of;
    {
        BraceReader reader;
        std::istringstream in(source);
        std::string line, file = source_path;
        long number = 1;
        for (std::size_t k = 0; std::getline(in, line); ++k) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            parens_before.push_back(reader.parens);
            before.push_back(before.back() + reader.read(line));
            if (line_marker(line, number, file)) continue;  // a #line directive (assemble_lab's, at column 0)
            lines_of[{file, number++}].push_back(k);
        }
    }
    // The preprocessed source: the braces of the lab's files' lines, compared with the source's wherever a
    // line of the source starts outside every parenthesis (a macro's arguments may span lines; the
    // preprocessor puts the whole expansion on the first).
    std::vector<std::string> out;
    BraceReader reader;
    std::istringstream in(ii);
    std::string line, file, where;
    long number = 0, braces = 0;
    std::size_t last = 0;
    bool started = false;
    const auto report = [&] {
        out.push_back("a macro whose expansion opens or closes braces the source does not show (" + where +
                      "): a region cannot close its function or namespace, however a header's macro spells it");
    };
    while (std::getline(in, line)) {
        if (line_marker(line, number, file)) continue;
        const long here = reader.read(line);
        const bool lab = file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0;
        const bool code = line.find_first_not_of(" \t\r\f\v") != std::string::npos && line[0] != '#';
        if (lab && code) {
            const auto candidates = lines_of.find({file, number});
            if (candidates != lines_of.end()) {
                const auto k = std::lower_bound(candidates->second.begin(), candidates->second.end(), started ? last : 0);
                if (k != candidates->second.end()) {
                    if (started && *k > last && parens_before[*k] == 0 && braces != before[*k]) {
                        report();
                        return out;
                    }
                    last = *k;
                    started = true;
                }
            }
            if (candidates == lines_of.end() || !started) {  // fail closed: a line the source cannot account for
                out.push_back("a line the compiled source does not have (" + file + ", line " + std::to_string(number) +
                              "), so its braces cannot be compared with what the rules read");
                return out;
            }
            braces += here;
            where = file + ", line " + std::to_string(number);
        }
        ++number;
    }
    if (started && braces != before.back()) report();
    return out;
}

std::vector<std::string> region_code_in_preprocessed(const std::string& ii) {
    std::vector<std::string> out;
    std::istringstream in(ii);
    std::string line, file;
    long number = 0;
    const auto add = [&](const std::string& what) {
        const std::string where = what + " (" + file + ", line " + std::to_string(number) + ")";
        if (std::find(out.begin(), out.end(), where) == out.end()) out.push_back(where);
    };
    // An attribute GCC acts on in ways a lab may not (refused_attribute), at any depth of a list, or any
    // attribute not listed as harmless (allowed_attribute), and any namespace of attributes but GCC's.
    const auto refuse = [&](const std::string& name, bool attribute) {
        if (name.compare(0, 10, "namespace ") == 0) {
            if (name != "namespace gnu") add("an attribute's " + name);
        } else if (name.compare(0, 8, "literal ") == 0) {
            add("a prefixed or raw string literal in an attribute's list (" + name.substr(8) + ")");
        } else if (refused_attribute(name) || (attribute && !allowed_attribute(name))) {
            add("an attribute (" + name + ")");
        }
    };
    // The end of a raw string literal that an earlier line opened and did not close (")delim\""), "" when
    // none: its lines are the literal's, whatever they hold (a '#' there starts no line marker).
    std::string raw_close;
    // What the code of the lines before (blank lines and line markers aside) left open, read on the next
    // line's code, whatever file its line marker names: an attribute list (GCC spreads a macro's expansion
    // over lines when its arguments come from the lab's file); an __attribute__ (2) or __declspec (1) whose
    // list starts on the next line; a '[' that ended the last line, which a '[' starting the next makes an
    // attribute with, whatever stood between them in the source (an empty macro: `[` on one line,
    // `CUDARTAPI [gnu::constructor]]` on the next).
    AttributeList list;
    int keyword_pending = 0;
    bool open_bracket = false;
    while (std::getline(in, line)) {
        std::size_t from = 0;  // where the line's code starts
        if (!raw_close.empty()) {
            const std::size_t end = line.find(raw_close);
            if (end == std::string::npos) {
                ++number;
                continue;
            }
            from = end + raw_close.size();
            raw_close.clear();
        }
        // A line marker: # N "file" [flags], or #line N "file", read as line_marker reads it (its file name's
        // escapes too: a folder named q"x is spelled q\"x there). One that cannot be read ends the reading:
        // the lines after it could not be told the lab's from the headers'.
        std::size_t at = line.find_first_not_of(" \t");
        if (from == 0 && at != std::string::npos && line[at] == '#') {
            std::size_t p = line.find_first_not_of(" \t", at + 1);
            if (p != std::string::npos && line.compare(p, 4, "line") == 0) p = line.find_first_not_of(" \t", p + 4);
            if (p != std::string::npos && std::isdigit(static_cast<unsigned char>(line[p]))) {
                if (at != 0 || !line_marker(line, number, file)) {
                    add("a line marker the audit cannot read (" + line.substr(0, 80) + ")");
                    return out;
                }
                continue;
            }
        }
        const bool lab_source = file.size() > 3 && file.compare(file.size() - 3, 3, ".cu") == 0;
        const std::size_t first_code = line.find_first_not_of(" \t\r\f\v", from);
        const bool code_line = first_code != std::string::npos && (from > 0 || line[first_code] != '#');
        std::size_t start = from;  // where the lab's code on this line starts, after what the lines before left open
        if (code_line) {
            if (!list.open && keyword_pending != 0 && line[first_code] == '(') list.start('(', keyword_pending);
            if (!list.open && open_bracket && line[first_code] == '[') list.start('[', 2, 1);  // its first '[' before
            keyword_pending = 0;
            open_bracket = false;
            if (list.open) start = read_attribute_list(list, line, first_code, refuse);
            if (start == std::string::npos) {  // the list goes on on the next line
                ++number;
                continue;
            }
        }
        if (lab_source) {
            if (from == 0 && at != std::string::npos && line[at] == '#') {
                // What the preprocessor left of a region's lines: a #pragma (from _Pragma) other than unroll.
                std::size_t p = line.find_first_not_of(" \t", at + 1);
                const bool pragma = p != std::string::npos && line.compare(p, 6, "pragma") == 0;
                if (pragma) p = line.find_first_not_of(" \t", p + 6);
                const bool unroll = pragma && p != std::string::npos &&
                                    (line.compare(p, 6, "unroll") == 0 || line.compare(p, 8, "nounroll") == 0);
                if (!unroll) add("a preprocessor line: " + line.substr(at, 60));
            } else {
                // Identifiers outside string and character literals: asm, however it was spelled in the source,
                // and attributes that run, rename or move code (what __launch_bounds__, __device__ and the
                // like expand to is not among them).
                // A literal as the compiler reads it: a raw string R"d(...)d" to its own end, a string or
                // character literal to its closing quote, and a number whole (a digit separator, 1'000, opens
                // no character literal); a raw string that the line does not close goes on on the next lines
                // (raw_close).
                const auto skip_literal = [&](std::size_t q, bool raw) {
                    if (raw) {
                        const std::size_t open = line.find('(', q + 1);
                        if (open == std::string::npos) return line.size();
                        const std::string close = ")" + line.substr(q + 1, open - q - 1) + "\"";
                        const std::size_t end = line.find(close, open + 1);
                        if (end != std::string::npos) return end + close.size();
                        raw_close = close;
                        return line.size();
                    }
                    return quoted_end(line, q);
                };
                // Where the last literal ended: an identifier right there is its suffix (""R, a user-defined
                // literal), never the prefix of the next one: the compiler reads ""R"(" as ""R then the
                // ordinary string "(", not as a raw string that would hide the lines up to a )".
                std::size_t literal_end = std::string::npos;
                for (std::size_t i = start; i < line.size();) {
                    const char c = line[i];
                    if (c == '"' || c == '\'') {
                        i = literal_end = skip_literal(i, false);
                    } else if (number_starts(line, i)) {
                        i = number_end(line, i);
                    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                        const std::size_t j = identifier_end(line, i);
                        const std::string id = line.substr(i, j - i);
                        if (j < line.size() && (line[j] == '"' || line[j] == '\'')) {  // a prefixed literal
                            if (const int prefix = literal_prefix(id, line[j], i == literal_end); prefix != 0) {
                                i = literal_end = skip_literal(j, prefix == 2);
                                continue;
                            }
                        }
                        if (id == "asm" || id == "__asm" || id == "__asm__") add("inline assembly (" + id + ")");
                        // A linkage block or declaration, however a macro spelled it (glibc's __BEGIN_DECLS):
                        // a lab's names are C++ names in its namespace.
                        // Any string literal after extern names a linkage (extern u8"C", extern "\x43" and
                        // extern R"(C)" are C's too).
                        if (id == "extern") {
                            const std::size_t q = line.find_first_not_of(" \t", j);
                            std::size_t r = q;
                            while (r < line.size() && (std::isalnum(static_cast<unsigned char>(line[r])) || line[r] == '_')) ++r;
                            const std::string prefix = q == std::string::npos ? "" : line.substr(q, r - q);
                            static const std::set<std::string> prefixes = {"", "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R"};
                            if (r < line.size() && line[r] == '"' && prefixes.count(prefix)) add("extern \"C\"");
                        }
                        i = j;
                        if (id != "__attribute__" && id != "__attribute" && id != "__declspec") continue;
                        // The attribute's parenthesized list: the names in it, at any depth, on this line and on.
                        const int names_at = id == "__declspec" ? 1 : 2;
                        const std::size_t k = line.find_first_not_of(" \t\r\f\v", j);
                        if (k == std::string::npos) {
                            keyword_pending = names_at;
                        } else if (line[k] == '(') {
                            list.start('(', names_at);
                            i = std::min(read_attribute_list(list, line, k, refuse), line.size());
                        }
                    } else if (c == '[' && line.find_first_not_of(" \t\r\f\v", i + 1) != std::string::npos &&
                               line[line.find_first_not_of(" \t\r\f\v", i + 1)] == '[') {
                        // A standard attribute, however its brackets were spelled apart (an empty macro between
                        // them), on this line and on.
                        list.start('[', 2);
                        i = std::min(read_attribute_list(list, line, i, refuse), line.size());
                    } else {
                        ++i;
                    }
                }
            }
        }
        if (code_line && raw_close.empty() && !list.open && keyword_pending == 0)
            open_bracket = line[line.find_last_not_of(" \t\r\f\v")] == '[';
        ++number;
    }
    return out;
}

namespace {
// The sections `objdump -d`'s @p disassembly shows ("Disassembly of section NAME:").
std::set<std::string> code_sections(const std::string& disassembly) {
    std::set<std::string> code;
    std::istringstream in(disassembly);
    std::string line;
    const std::string head = "Disassembly of section ";
    while (std::getline(in, line))
        if (line.rfind(head, 0) == 0 && line.size() > head.size() + 1 && line.back() == ':')
            code.insert(line.substr(head.size(), line.size() - head.size() - 1));
    return code;
}
}  // namespace

std::vector<std::string> labels_in_code(const std::string& symbol_table, const std::string& disassembly) {
    const std::set<std::string> code = code_sections(disassembly);
    std::vector<std::string> out;
    const auto add = [&](const std::string& name) {
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    };
    std::map<std::string, std::vector<TableSymbol>> functions;  // by section
    for (const TableSymbol& t : parse_symbol_table(symbol_table)) {
        if (!code.count(t.section) || t.flags.find('d') != std::string::npos) continue;
        if (!t.function()) {
            if (t.flags.find_first_of("Of") == std::string::npos) add(t.name);
            continue;
        }
        // A function the compiler made has its size; assembly that types a label as a function (.type
        // name, @function) gives it none, or puts it inside another function.
        if (t.size == 0) add(t.name);
        functions[t.section].push_back(t);
    }
    for (const auto& [section, list] : functions)
        for (const TableSymbol& f : list)
            for (const TableSymbol& g : list)
                if (&f != &g && f.value > g.value && f.value < g.value + g.size) add(f.name);
    return out;
}

std::vector<std::string> code_outside_functions(const std::string& symbol_table, const std::string& disassembly) {
    std::map<std::string, std::vector<std::pair<unsigned long long, unsigned long long>>> extents;  // by section
    for (const TableSymbol& t : parse_symbol_table(symbol_table))
        if (t.function()) extents[t.section].push_back({t.value, t.value + t.size});
    // What an assembler puts between functions to align the next: no-operations of every length and int3.
    // Prefixes (data16, cs) only before a no-operation: data16 on any other instruction is that instruction.
    static const std::regex padding(R"(^((data16|cs|ds)\s+)*(nop[wlq]?|xchg\s+%ax,%ax|int3)(\s.*)?$)");
    std::vector<std::string> out;
    std::set<std::string> reported;
    std::istringstream in(disassembly);
    std::string line, section;
    const std::string head = "Disassembly of section ";
    const std::regex insn(R"(^\s*([0-9a-fA-F]+):\t(.*)$)");
    std::smatch m;
    while (std::getline(in, line)) {
        if (line.rfind(head, 0) == 0 && line.size() > head.size() + 1 && line.back() == ':') {
            section = line.substr(head.size(), line.size() - head.size() - 1);
            continue;
        }
        if (section.empty() || reported.count(section) || !std::regex_match(line, m, insn)) continue;
        std::string text = m[2].str();
        if (text.empty() || text[0] == '\t' || text[0] == ' ') continue;  // no instruction: a relocation's line
        const unsigned long long at = std::stoull(m[1].str(), nullptr, 16);
        bool inside = false;
        for (const auto& [from, to] : extents[section]) inside = inside || (at >= from && at < to);
        if (inside || std::regex_match(text, padding)) continue;
        reported.insert(section);
        std::ostringstream where;
        where << section << "+0x" << std::hex << at;
        out.push_back("has code at " + where.str() + " (" + text.substr(0, text.find_first_of(" \t")) +
                      ") that lies in no function: only assembly puts code there, where the audit cannot give it to "
                      "the function the compiler made");
    }
    return out;
}

std::vector<std::string> unexpected_constructors(const std::string& symbol_table, const std::string& relocations) {
    // The constructors the compilers make: nvcc's registration of the file's kernels, and GCC's of a file's
    // variables at namespace scope (their initializers are the lab's code, confined like its calls).
    const auto compilers = [](const std::string& name) {
        return name == "_ZL24__sti____cudaRegisterAllv" || starts_with(name, "_GLOBAL__sub_I_");
    };
    std::map<std::pair<std::string, unsigned long long>, std::string> starts;  // {section, offset} -> function
    std::map<std::string, std::pair<std::string, unsigned long long>> by_name;
    for (const TableSymbol& t : parse_symbol_table(symbol_table))
        if (t.function()) {
            starts[{t.section, t.value}] = t.name;
            by_name[t.name] = {t.section, t.value};
        }
    std::vector<std::string> out;
    const std::regex symbol_and_addend(R"(([^+\s]+)(?:\+0x([0-9a-fA-F]+))?)");
    std::smatch m;
    for (const auto& [section, value] : relocation_records(relocations)) {
        if (!starts_with(section, ".init_array") && !starts_with(section, ".fini_array")) continue;
        if (!std::regex_match(value, m, symbol_and_addend)) continue;
        const std::string target = m[1].str();
        const unsigned long long offset = m[2].matched ? std::stoull(m[2].str(), nullptr, 16) : 0;
        std::string function;
        if (const auto s = starts.find({target, offset}); s != starts.end()) function = s->second;  // .text.startup+0x0
        else if (const auto f = by_name.find(target); f != by_name.end() && offset == 0) function = target;
        if (compilers(function)) continue;
        std::ostringstream named;
        if (!function.empty()) {
            named << demangle(function);
        } else {
            named << target;
            if (offset) named << "+0x" << std::hex << offset;
        }
        out.push_back("lists " + named.str() +
                      " in " + section + ", to run before main() or at exit: only the compilers' own constructors may "
                      "be there (a lab's code runs when the lab is called)");
    }
    return out;
}

std::vector<std::string> unexpected_sections(const std::string& section_headers) {
    // The names the compilers give: exactly, or as a prefix followed by a name of the compiler's making
    // (-ffunction-sections, COMDAT groups of inline functions and templates, string merging).
    static const std::set<std::string> exact = {
        ".text", ".rodata", ".data", ".bss", ".tdata", ".tbss", ".group", ".comment", ".eh_frame",
        ".gcc_except_table", ".init_array", ".note.GNU-stack", ".note.gnu.property", ".nv_fatbin",
        "__nv_managed_data__",  // a __managed__ variable's (host code that touches one is refused: managed memory)
        ".nvFatBinSegment", "__nv_module_id", ".data.rel", ".data.rel.ro", ".data.rel.local", ".data.rel.ro.local"};
    static const char* const prefixes[] = {".text.", ".rodata.", ".data.", ".bss.", ".tdata.", ".tbss.",
                                           ".gcc_except_table.", ".debug_"};
    std::vector<std::string> out;
    std::istringstream in(section_headers);
    // "  0 .text  00000000  0000000000000000  0000000000000000  00000040  2**0  CONTENTS, ALLOC, LOAD, ..."
    const std::regex row(R"(^\s*\d+\s+(\S+)\s+[0-9a-fA-F]+\s+[0-9a-fA-F]+\s+[0-9a-fA-F]+\s+[0-9a-fA-F]+\s+\S+\s*(.*)$)");
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
        if (!std::regex_match(line, m, row)) continue;
        const std::string name = m[1].str(), flags = m[2].str();
        bool known = exact.count(name) > 0;
        for (const char* p : prefixes)
            if (!known && starts_with(name, p) && name.size() > std::strlen(p)) known = true;
        const bool code = flags.find("CODE") != std::string::npos;
        if (!known)
            out.push_back("has a section " + name + ", which the compilers do not make of a lab's code (only assembly or "
                          "a section attribute names one)");
        else if (code && name != ".text" && !starts_with(name, ".text."))
            out.push_back("has code in its section " + name + ", which holds no code as the compilers make it");
    }
    return out;
}

std::set<std::string> referenced_functions(const std::string& symbol_table, const std::string& relocations) {
    // Functions by where they start: (section, offset) -> name, from `objdump -t` lines such as
    // "0000000000000210 g     F .text\t0000000000000020 _ZN5lab0216atomic_max_floatEPff".
    std::map<std::pair<std::string, unsigned long long>, std::string> starts;
    for (const TableSymbol& t : parse_symbol_table(symbol_table))
        if (t.function()) starts[{t.section, t.value}] = t.name;
    // Every relocation's target, from `objdump -r`: a symbol (with an addend: exit-0x4), or a section
    // and an offset (.text+0x210), the start of a function there.
    std::set<std::string> out;
    for (std::string target : relocation_values(relocations)) {
        unsigned long long offset = 0;
        if (const std::size_t sign = target.find_first_of("+-", 1); sign != std::string::npos) {
            if (target[sign] == '+' && target.compare(sign + 1, 2, "0x") == 0)
                offset = std::stoull(target.substr(sign + 3), nullptr, 16);
            target = target.substr(0, sign);
        }
        if (!target.empty() && target[0] == '.') {
            if (const auto it = starts.find({target, offset}); it != starts.end()) out.insert(it->second);
        } else {
            out.insert(target);
        }
    }
    return out;
}

std::vector<ObjectSymbol> parse_nm_posix(const std::string& text) {
    std::vector<ObjectSymbol> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string name, type;
        if (!(words >> name >> type) || type.size() != 1) continue;
        if (name.back() == ':') continue;  // "file.o:" headers of archives
        out.push_back({name, type[0]});
    }
    return out;
}

std::vector<HostFunction> parse_objdump(const std::string& text) {
    // "0000000000000210 <name>:" starts a function; "  21c:\tmov ..." is an instruction;
    // "\t\t\t221: R_X86_64_PLT32\texit-0x4" a relocation in the instruction before it.
    std::vector<HostFunction> out;
    std::istringstream in(text);
    std::string line, section;
    const std::string section_header = "Disassembly of section ";
    while (std::getline(in, line)) {
        if (starts_with(line, section_header) && line.back() == ':') {
            section = line.substr(section_header.size(), line.size() - section_header.size() - 1);
            continue;
        }
        const auto lt = line.find(" <");
        if (lt != std::string::npos && line.size() > 2 && line.compare(line.size() - 2, 2, ">:") == 0 &&
            std::isxdigit(static_cast<unsigned char>(line[0]))) {
            out.push_back({line.substr(lt + 2, line.size() - lt - 4), {}, {}, {}, {}, section});
            continue;
        }
        if (out.empty()) out.push_back({"", {}, {}, {}, {}, section});  // code before any label
        const auto r = line.find(": R_");
        if (r != std::string::npos) {
            const auto tab = line.find('\t', r);
            if (tab == std::string::npos) continue;
            std::string target = line.substr(tab + 1);
            const auto off = target.find_first_of("+-");
            if (target[0] == '.' && off != std::string::npos && target.compare(off + 1, 2, "0x") == 0) {
                // A section and an addend (.text+0x2c, .text-0x4): where it points, in targets. A PC-relative
                // field is the instruction's last four bytes, so its addend is 4 short of the place.
                long long at = std::stoll(target.substr(off + 3), nullptr, 16) * (target[off] == '-' ? -1 : 1);
                const std::string type = line.substr(r + 2, tab - r - 2);
                if (type.find("PC32") != std::string::npos || type.find("PLT32") != std::string::npos) at += 4;
                if (at >= 0) {
                    std::ostringstream place;
                    place << target.substr(0, off) << "+0x" << std::hex << at;
                    out.back().targets.push_back(place.str());
                }
            }
            if (off != std::string::npos && off > 0) target = target.substr(0, off);
            out.back().relocations.push_back(target);
            continue;
        }
        const auto colon = line.find(":\t");
        if (colon == std::string::npos) continue;
        // The mnemonic is the first word that is not a prefix ("data16 syscall", "rex.W syscall").
        static const std::set<std::string> prefixes = {"data16", "data32", "addr16", "addr32", "lock", "rep", "repz",
                                                       "repnz", "repe", "repne", "cs", "ds", "es", "fs", "gs", "ss",
                                                       "notrack", "bnd", "xacquire", "xrelease"};
        std::istringstream words(line.substr(colon + 2));
        std::string m, operand;
        while (words >> m && (prefixes.count(m) || m.rfind("rex", 0) == 0)) {}
        if (m.empty()) continue;
        if (m == "int") {
            words >> operand;
            if (operand == "$0x80") m = "int80";
        }
        out.back().mnemonics.push_back(m);
        // "lea -0x87(%rip),%rax        # 300 <_ZL31__nv_cudaEntityRegisterCallbackPPv>": what the instruction
        // refers to in its own section, which needs no relocation.
        if (const auto open = line.rfind(" <"); open != std::string::npos && open > colon && line.back() == '>') {
            std::string target = line.substr(open + 2, line.size() - open - 3);
            if (const auto off = target.find_first_of("+-"); off != std::string::npos && off > 0) target.resize(off);
            else out.back().starts.push_back(target);
            out.back().targets.push_back(target);
        }
    }
    return out;
}

}  // namespace grading
