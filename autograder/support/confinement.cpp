// The launch host's confinement (see confinement.hpp).
#include "confinement.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace grading::isolation {

bool confine_launch_host(const char* exec_path) {
#if defined(__x86_64__)
    constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
    static_assert(false, "the launch host's filter knows the system calls of x86-64 and AArch64 only");
#endif
    const auto self = static_cast<unsigned>(::getpid());
    constexpr unsigned kAllow = SECCOMP_RET_ALLOW, kRefuse = SECCOMP_RET_ERRNO | EPERM;
    constexpr unsigned kNr = offsetof(seccomp_data, nr), kArchAt = offsetof(seccomp_data, arch);
    constexpr unsigned kArg0 = offsetof(seccomp_data, args);  // low 32 bits of the first argument (little-endian)
    sock_filter f[128];
    unsigned n = 0;
    const auto put = [&](sock_filter x) { f[n++] = x; };
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArchAt));
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
    put(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));  // another ABI: nothing of this program's
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr));
#if defined(__x86_64__)
    put(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));  // the x32 ABI's numbers
    put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
#endif
    // Refused outright.
    const unsigned refused[] = {
#ifdef __NR_fork
        __NR_fork,
#endif
#ifdef __NR_vfork
        __NR_vfork,
#endif
        __NR_setsid, __NR_setpgid, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_tkill,
        __NR_rt_sigqueueinfo, __NR_pidfd_send_signal, __NR_pidfd_open,
        // The clock (files' change times, which tell the grader's programs unchanged, follow it), mounts
        // and namespaces, and what only the system's administrator does.
        __NR_clock_settime, __NR_settimeofday, __NR_adjtimex, __NR_clock_adjtime, __NR_mount, __NR_umount2,
        __NR_pivot_root, __NR_chroot, __NR_unshare, __NR_setns, __NR_init_module, __NR_finit_module,
        __NR_delete_module, __NR_kexec_load, __NR_reboot};
    for (unsigned nr : refused) {
        put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1));
        put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
    }
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 0, 1));
    put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
    // execve: the host's own, once (a guess at the address costs the process: no second try).
    const auto path = reinterpret_cast<std::uint64_t>(exec_path);
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 6));
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0));
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(path & 0xffffffffu), 0, 2));
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0 + 4));
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(path >> 32), 1, 0));
    put(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    put(BPF_STMT(BPF_RET | BPF_K, kAllow));
    // clone3 passes its flags in memory, out of the filter's sight: "not implemented", so that the C library
    // falls back to clone, whose flags it can see.
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1));
    put(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
    // clone: a thread only.
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4));
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0));
    put(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    put(BPF_STMT(BPF_RET | BPF_K, kAllow));
    put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
    // prctl: all but PR_SET_PDEATHSIG. The host dies with the check program (SIGKILL, set before the
    // filter); a host that took that away would outlive a check program killed at its time limit, with
    // its CUDA context and its work on the GPU, beside every grading after it.
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_prctl, 0, 4));
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0));
    put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_PDEATHSIG, 0, 1));
    put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
    put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr));  // the call's number again, for the rules after
    // Nor through a descriptor: fcntl and ioctl calls that make the kernel signal a descriptor's owner (any
    // process of the user, which the owner may name) on its I/O, or on a lease or a folder's change, are
    // refused; every other fcntl and ioctl (the CUDA driver's own) is not. Both calls take their command as
    // an unsigned int: its low 32 bits are the whole of it.
    constexpr unsigned kArg1 = kArg0 + 8;
    const auto refuse_commands = [&](unsigned nr, std::initializer_list<unsigned> commands) {
        const auto count = static_cast<unsigned char>(commands.size());
        put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, static_cast<unsigned char>(count + 4)));
        put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg1));
        unsigned char i = 0;
        for (unsigned command : commands) {
            put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, command, static_cast<unsigned char>(count - i + 1), 0));
            ++i;
        }
        put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kNr));
        put(BPF_STMT(BPF_JMP | BPF_JA, 1));
        put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
    };
    refuse_commands(__NR_fcntl, {F_SETOWN, F_SETOWN_EX, F_SETSIG, F_NOTIFY, F_SETLEASE});
    refuse_commands(__NR_ioctl, {FIOSETOWN, SIOCSPGRP, FIOASYNC, TIOCSPGRP});
    // Signals: to itself (its pid, or 0: its own process group) only.
    for (unsigned nr : {static_cast<unsigned>(__NR_kill), static_cast<unsigned>(__NR_tgkill),
                        static_cast<unsigned>(__NR_rt_tgsigqueueinfo)}) {
        put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 5));
        put(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, kArg0));
        put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 2, 0));
        put(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0));
        put(BPF_STMT(BPF_RET | BPF_K, kRefuse));
        put(BPF_STMT(BPF_RET | BPF_K, kAllow));
    }
    put(BPF_STMT(BPF_RET | BPF_K, kAllow));
    const sock_fprog program{static_cast<unsigned short>(n), f};
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

bool drop_capabilities(bool keep_profiling) {
    const auto kept = [&](int cap) { return keep_profiling && cap == CAP_SYS_ADMIN; };
    // The bounding set first (it takes CAP_SETPCAP, which a process without it cannot drop anyway), up to
    // the running kernel's last capability.
    for (int cap = 0; cap < 64; ++cap) {
        if (kept(cap)) continue;
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno == EINVAL) break;
    }
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (keep_profiling) {
        const unsigned bit = 1u << (CAP_SYS_ADMIN % 32);
        data[CAP_SYS_ADMIN / 32].effective = data[CAP_SYS_ADMIN / 32].permitted = bit;
    }
    if (::syscall(SYS_capset, &header, data) == 0) return true;
    // Without CAP_SYS_ADMIN to keep, all of them.
    data[CAP_SYS_ADMIN / 32] = {};
    return ::syscall(SYS_capset, &header, data) == 0;
}

bool restrict_host_writes(bool under_tool) {
    // The rights that change the file system; reading and running files are left alone.
    constexpr unsigned long long kTruncate = 1ull << 14;  // LANDLOCK_ACCESS_FS_TRUNCATE (ABI 3)
    const long abi = ::syscall(__NR_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return false;
    unsigned long long writes = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                                LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                                LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) writes |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3) writes |= kTruncate;
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = writes;
    const int ruleset = static_cast<int>(::syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) return false;
    // Where it may still write: the devices (the GPU's among them, and /dev/shm), its working folder (a
    // fresh scratch folder of its own), its own threads' entries in /proc (the CUDA driver names the threads
    // it starts by writing /proc/self/task/<tid>/comm, and fails to start without; the process keeps its
    // pid across the exec, so the entries stay its own), and under a tool the system's folders for
    // temporary files, which the tools' parts in the process may use. Not the rest of /proc: another
    // process's memory is a file there.
    const char* const places[] = {"/dev", ".", "/proc/self/task", under_tool ? "/tmp" : nullptr,
                                  under_tool ? "/var/tmp" : nullptr};
    for (const char* place : places) {
        if (!place) continue;
        const int fd = ::open(place, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) continue;
        landlock_path_beneath_attr beneath{};
        beneath.allowed_access = writes;
        beneath.parent_fd = fd;
        ::syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        ::close(fd);
    }
    const bool in_place = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                          ::syscall(__NR_landlock_restrict_self, ruleset, 0) == 0;
    ::close(ruleset);
    return in_place;
}

}  // namespace grading::isolation
