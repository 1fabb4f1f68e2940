// confined_compile: runs a compiler on a submission's code with the file system, the network and other
// processes out of its reach but for what the compile needs.
//
//   confined_compile [--read PATH]... [--write DIR]... [--tmp DIR] [--protect PATH]... [--report FILE]
//                    -- COMMAND [ARG]...
//
// A compiler reads files a submission names: a region's assembly can pull any readable file into the object
// (`.incbin`), and the preprocessor, the assembler and the compiler's own options read others. The region
// rules and the audit refuse every spelling of that they know; this closes the class whatever the spelling.
// Before it runs COMMAND it restricts itself with Landlock, kept by COMMAND and every process COMMAND starts:
//   - files may be read (and run) only under the system's folders of programs, libraries and headers
//     (/usr/bin, /usr/lib*, /usr/libexec, /usr/include, and /bin, /sbin, /lib* where they are not links to
//     those), /etc/ld.so.cache, the device files a compiler opens (/dev/null, /dev/zero, /dev/random,
//     /dev/urandom), and each --read PATH (the toolkit, the course's interface headers, the lab's assembled
//     source: the file, not its folder);
//   - written, made, removed or renamed only under each --write DIR, under the folders of COMMAND's outputs
//     (the files after -o and -MF: the object's own folder, not CMake's files beside it) and under --tmp DIR,
//     which is also COMMAND's TMPDIR; and no file may grow past 256 MiB;
//   - no TCP connection or port (Landlock ABI 4), no signal to a process outside and no abstract Unix socket
//     outside (ABI 6); and no capability, even run as root.
// So the grader's solutions, the rubric, another student's staged files or verdicts and an instructor's
// secret cannot be read while a lab builds, wherever they are, as long as they do not lie under a folder the
// compile may read: each --protect PATH is checked, and each path of the environment's GRADER_CONFINED_PROTECT
// (colon-separated: what the runner names for one grading), and one that does (or an allowed path inside one) stops
// the compile with a message.
//
// What went wrong with the confinement (a system without Landlock, where COMMAND runs unconfined) is written
// to --report FILE, made afresh before COMMAND runs and out of its reach (the runner reports it with the
// lab's build; what COMMAND prints cannot pass for it), and to standard error. Exit status: COMMAND's; 2 on
// a bad command line; 125 when a protected path is within reach; 126 when COMMAND cannot be run.
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confinement.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The kernel's ABI, spelled out: the system's headers may predate the rights and scopes used here.
constexpr std::uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3,
                        kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeChar = 1ull << 6, kMakeDir = 1ull << 7,
                        kMakeReg = 1ull << 8, kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10, kMakeBlock = 1ull << 11,
                        kMakeSym = 1ull << 12, kRefer = 1ull << 13 /* ABI 2 */, kTruncate = 1ull << 14 /* ABI 3 */;
constexpr std::uint64_t kNetBind = 1ull << 0, kNetConnect = 1ull << 1;                  // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1;       // ABI 6
struct RulesetAttr {
    std::uint64_t handled_access_fs = 0, handled_access_net = 0, scoped = 0;
};
struct PathBeneathAttr {
    std::uint64_t allowed_access;
    std::int32_t parent_fd;
} __attribute__((packed));

std::vector<std::string> warnings;
void warn(const std::string& what) {
    std::fprintf(stderr, "confined_compile: warning: %s\n", what.c_str());
    warnings.push_back(what);
}

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr,
                 "confined_compile: %s\nusage: confined_compile [--read PATH]... [--write DIR]... [--tmp DIR] "
                 "[--protect PATH]... [--report FILE] -- COMMAND [ARG]...\n",
                 why.c_str());
    std::exit(2);
}

// A path made absolute and with its links resolved where it exists (Landlock follows the file, not the name).
fs::path resolved(const fs::path& p) {
    std::error_code ec;
    fs::path r = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? fs::absolute(p) : r;
}

bool lies_under(const fs::path& p, const fs::path& root) {
    auto r = root.begin(), q = p.begin();
    for (; r != root.end(); ++r, ++q) {
        if (r->empty()) continue;  // a trailing separator
        if (q == p.end() || *q != *r) return false;
    }
    return true;
}

// The parts of a colon-separated list, empty ones included.
std::vector<std::string> colon_list(const std::string& list) {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const auto colon = list.find(':', start);
        parts.push_back(list.substr(start, colon - start));
        if (colon == std::string::npos) return parts;
        start = colon + 1;
    }
}

// The file execvp runs for @p name: @p name itself when it holds a '/', else the first executable of that name
// on PATH; empty when there is none (execvp then says so).
fs::path command_file(const char* name) {
    if (std::strchr(name, '/')) return fs::absolute(name);
    const char* path = std::getenv("PATH");
    for (const auto& dir : colon_list(path ? path : "/usr/bin:/bin")) {
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return fs::absolute(candidate);
    }
    return {};
}

struct Rule {
    fs::path path;
    std::uint64_t access;
};

}  // namespace

int main(int argc, char** argv) {
    std::vector<fs::path> reads, writes, protect;
    fs::path tmp, report;
    int i = 1;
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (i + 1 >= argc) usage(a + " needs a value");
        if (a == "--read") reads.emplace_back(argv[++i]);
        else if (a == "--write") writes.emplace_back(argv[++i]);
        else if (a == "--tmp") tmp = argv[++i];
        else if (a == "--protect") protect.emplace_back(argv[++i]);
        else if (a == "--report") report = argv[++i];
        else usage("unknown option " + a);
    }
    if (i >= argc) usage("no command to run after --");
    // And what the runner names for this grading (grade: its secret file, roster and gradebook), which the
    // compile's command line cannot know.
    if (const char* more = std::getenv("GRADER_CONFINED_PROTECT"))
        for (const auto& p : colon_list(more))
            if (!p.empty()) protect.emplace_back(p);
    char** command = argv + i;
    // The compiler itself may be a file outside the toolkit (a wrapper script in /usr/local/bin that execs the
    // toolkit's nvcc, say): it may be read and run, and nothing else of its folder.
    if (const fs::path self = command_file(command[0]); !self.empty()) reads.push_back(self);

    // The folders of COMMAND's outputs: an object (-o FILE) and its dependency file (-MF FILE).
    for (int k = i; k + 1 < argc; ++k)
        if (std::strcmp(argv[k], "-o") == 0 || std::strcmp(argv[k], "-MF") == 0)
            writes.push_back(fs::absolute(argv[k + 1]).parent_path());
    std::error_code ec;
    for (const auto& w : writes) fs::create_directories(w, ec);
    if (!tmp.empty()) {
        fs::create_directories(tmp, ec);
        const std::string t = resolved(tmp).string();
        for (const char* v : {"TMPDIR", "TMP", "TEMP"}) ::setenv(v, t.c_str(), 1);
    }

    const std::uint64_t read = kReadFile | kReadDir | kExecute;
    std::uint64_t write = kWriteFile | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock |
                          kMakeFifo | kMakeBlock | kMakeSym;
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi >= 2) write |= kRefer;
    if (abi >= 3) write |= kTruncate;

    std::vector<Rule> rules;
    for (const char* system : {"/usr/bin", "/usr/sbin", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32",
                               "/usr/libexec", "/usr/include", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                               "/etc/ld.so.cache"})
        rules.push_back({system, read});
    for (const char* device : {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"})
        rules.push_back({device, kReadFile | kWriteFile | (abi >= 3 ? kTruncate : 0)});
    for (const auto& r : reads) rules.push_back({r, read});
    for (const auto& w : writes) rules.push_back({w, read | write});
    if (!tmp.empty()) rules.push_back({tmp, read | write});

    // What must stay out of reach must not lie under a path the compile may read, nor hold one.
    for (const auto& p : protect) {
        const fs::path pr = resolved(p);
        for (const auto& rule : rules) {
            std::error_code e;
            if (!fs::exists(rule.path, e)) continue;
            const fs::path rr = resolved(rule.path);
            if (lies_under(pr, rr) || lies_under(rr, pr)) {
                std::fprintf(stderr,
                             "confined_compile: error: refusing to compile: %s and %s, which the compile may read or write, "
                             "lie one within the other: keep the course and its build folder out of the system's "
                             "folders\n",
                             p.c_str(), rule.path.c_str());
                return 125;
            }
        }
    }
    // Opened before the rules are in place: the compile itself may not write there.
    std::FILE* report_file = nullptr;
    if (!report.empty() && !(report_file = std::fopen(report.c_str(), "we"))) {
        std::fprintf(stderr, "confined_compile: cannot write %s: %s\n", report.c_str(), std::strerror(errno));
        return 2;
    }
    if (abi < 1) {
        warn("the compile runs unconfined: this system has no Landlock (Linux 5.13 or newer, with landlock among the "
             "security modules)");
    } else {
        RulesetAttr attr;
        attr.handled_access_fs = read | write;
        std::size_t attr_size = sizeof attr.handled_access_fs;
        if (abi >= 4) {
            attr.handled_access_net = kNetBind | kNetConnect;
            attr_size += sizeof attr.handled_access_net;
        }
        if (abi >= 6) {
            attr.scoped = kScopeAbstractUnix | kScopeSignal;
            attr_size += sizeof attr.scoped;
        }
        const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
        if (ruleset < 0) {
            warn(std::string("the compile runs unconfined: Landlock refused the rules (") + std::strerror(errno) + ")");
        } else {
            for (const auto& rule : rules) {
                const int fd = ::open(rule.path.c_str(), O_PATH | O_CLOEXEC);
                if (fd < 0) continue;  // a folder this system does not have
                struct stat st {};
                std::uint64_t access = rule.access;
                if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
                    access &= kExecute | kWriteFile | kReadFile | kTruncate;  // the rights a file can carry
                PathBeneathAttr beneath{access, fd};
                if (::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0)
                    warn("could not allow " + rule.path.string() + " (" + std::strerror(errno) + ")");
                ::close(fd);
            }
            if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
                ::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
                warn(std::string("the compile runs unconfined: ") + std::strerror(errno));
            ::close(ruleset);
        }
    }
    // No capability either (a compile needs none): run as root, it passes over no file's permissions.
    if (!grading::isolation::drop_capabilities(false)) warn("the compile keeps capabilities it could not drop");
    // No file past 256 MiB (an object is a few MiB): assembly that fills the disk stops there.
    const rlimit fsize{256ull << 20, 256ull << 20};
    ::setrlimit(RLIMIT_FSIZE, &fsize);
    if (report_file) {
        for (const auto& w : warnings) std::fprintf(report_file, "%s\n", w.c_str());
        std::fclose(report_file);
    }
    ::execvp(command[0], command);
    std::fprintf(stderr, "confined_compile: cannot run %s: %s\n", command[0], std::strerror(errno));
    return 126;
}
