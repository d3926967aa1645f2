/* lib/abi.h - the user ABI of ../shared/spec/abi.md, as C.
 *
 * One header for both sides of int $0x80: the kernel includes it to
 * implement the contract, user programs to call it. Numbers are Linux
 * i386's so students can compare the two side by side. */
#ifndef LIB_ABI_H
#define LIB_ABI_H

#include "lib/errno.h"

/* ---- System call numbers (abi.md section 3) ---- */
#define SYS_exit             1
#define SYS_fork             2
#define SYS_read             3
#define SYS_write            4
#define SYS_open             5
#define SYS_close            6
#define SYS_waitpid          7
#define SYS_execve          11
#define SYS_getpid          20
#define SYS_kill            37
#define SYS_brk             45
#define SYS_getppid         64
#define SYS_munmap          91
#define SYS_wait4          114
#define SYS_clone          120
#define SYS_modify_ldt     123
#define SYS_mprotect       125
#define SYS_writev         146
#define SYS_sched_yield    158
#define SYS_nanosleep      162
#define SYS_rt_sigreturn   173
#define SYS_rt_sigaction   174
#define SYS_rt_sigprocmask 175
#define SYS_mmap2          192
#define SYS_gettid         224
#define SYS_futex          240
#define SYS_sched_setaffinity 241
#define SYS_sched_getaffinity 242
#define SYS_set_thread_area 243
#define SYS_get_thread_area 244
#define SYS_exit_group     252
#define SYS_clock_gettime  265
#define SYS_tgkill         270

/* ---- System calls of abi.md section 9 (both personalities): threads,
 * identity and time, with Linux 6.1 i386's numbers. clone3 435 and rseq
 * 386 stay unimplemented (-ENOSYS): glibc falls back to clone and runs
 * without rseq. ---- */
#define SYS_time                13
#define SYS_times               43
#define SYS_gettimeofday        78
#define SYS_sysinfo            116
#define SYS_sigreturn          119
#define SYS_uname              122
#define SYS_prctl              172
#define SYS_vfork              190
#define SYS_getuid32           199
#define SYS_getgid32           200
#define SYS_geteuid32          201
#define SYS_getegid32          202
#define SYS_setuid32           213
#define SYS_setgid32           214
#define SYS_tkill              238
#define SYS_set_tid_address    258
#define SYS_clock_getres       266
#define SYS_clock_nanosleep    267
#define SYS_set_robust_list    311
#define SYS_get_robust_list    312
#define SYS_getrandom          355
#define SYS_rseq               386
#define SYS_clock_gettime64    403
#define SYS_clock_getres_time64 406
#define SYS_clock_nanosleep_time64 407
#define SYS_futex_time64       422
#define SYS_clone3             435

/* ---- clone flags (abi.md section 4; the seed's four are at the end) ---- */
#define CSIGNAL          0x000000ff /* signal sent to the parent at exit */
#define CLONE_VM         0x00000100 /* share the address space */
#define CLONE_FS         0x00000200 /* share cwd/umask */
#define CLONE_FILES      0x00000400 /* share the fd table */
#define CLONE_SIGHAND    0x00000800 /* share signal handlers */
#define CLONE_THREAD     0x00010000 /* same thread group */
#define CLONE_SETTLS     0x00080000 /* clone-settls: *tls is the child's TLS */
#define CLONE_SETTID     0x00100000 /* clone-settid: TID written to *ptid */
#define CLONE_DETACHED   0x00200000 /* clone-detached-A1: no exit signal */
#define CLONE_RELEASE_VM 0x00400000 /* user-vm-unlock-A2: 0 to newsp-4 */

/* ---- clone flags of the linux personality (abi.md section 9): Linux
 * 6.1's. Three of the seed's bits mean something else there: 0x00100000
 * is SETTID in both (PARENT_SETTID), 0x00200000 is the seed's DETACHED
 * and Linux's CHILD_CLEARTID, 0x00400000 the seed's RELEASE_VM and
 * Linux's (ignored) DETACHED. kernel/clone_flags.c has both tables. ---- */
#define CLONE_PIDFD          0x00001000 /* not supported: -EINVAL */
#define CLONE_PTRACE         0x00002000 /* no ptrace: -EINVAL */
#define CLONE_VFORK          0x00004000 /* parent sleeps until exec/exit */
#define CLONE_PARENT         0x00008000 /* sibling of the caller */
#define CLONE_NEWNS          0x00020000 /* namespaces: -EINVAL */
#define CLONE_SYSVSEM        0x00040000 /* accepted (no SysV semaphores) */
#define CLONE_PARENT_SETTID  0x00100000 /* TID at *ptid */
#define CLONE_CHILD_CLEARTID 0x00200000 /* 0 to *ctid + FUTEX_WAKE at mm release */
#define CLONE_LINUX_DETACHED 0x00400000 /* Linux's CLONE_DETACHED: ignored */
#define CLONE_UNTRACED       0x00800000 /* ignored */
#define CLONE_CHILD_SETTID   0x01000000 /* TID at *ctid, child's memory */
#define CLONE_NEWCGROUP      0x02000000
#define CLONE_NEWUTS         0x04000000
#define CLONE_NEWIPC         0x08000000
#define CLONE_NEWUSER        0x10000000
#define CLONE_NEWPID         0x20000000
#define CLONE_NEWNET         0x40000000
#define CLONE_IO             0x80000000 /* accepted: no I/O contexts here */

/* ---- wait4 options ---- */
#define WNOHANG   0x00000001
#define __WALL    0x40000000
#define __WCLONE  0x80000000

/* ---- TLS (abi.md section 5): the argument of set/get_thread_area ---- */
struct user_desc {
	unsigned int entry_number;  /* GDT index 6..8, or -1 to allocate */
	unsigned int base_addr;
	unsigned int limit;
	unsigned int seg_32bit:1;
	unsigned int contents:2;
	unsigned int read_exec_only:1;
	unsigned int limit_in_pages:1;
	unsigned int seg_not_present:1;
	unsigned int useable:1;
};
_Static_assert(sizeof(struct user_desc) == 16, "abi.md: user_desc is 16 bytes");

/* ---- futex (abi.md section 6) ---- */
#define FUTEX_WAIT          0
#define FUTEX_WAKE          1
#define FUTEX_PRIVATE_FLAG  128

/* Section 9's futex ops (Linux's uapi/linux/futex.h). */
#define FUTEX_REQUEUE         3
#define FUTEX_CMP_REQUEUE     4
#define FUTEX_WAKE_OP         5
#define FUTEX_WAIT_BITSET     9
#define FUTEX_WAKE_BITSET    10
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu
/* FUTEX_WAKE_OP's val3: op 4 bits (8 = oparg is a shift), cmp 4 bits,
 * oparg 12 bits, cmparg 12 bits (both signed). */
#define FUTEX_OP(op, oparg, cmp, cmparg) \
	((((op) & 0xf) << 28) | (((cmp) & 0xf) << 24) | \
	 (((oparg) & 0xfff) << 12) | ((cmparg) & 0xfff))
#define FUTEX_OP_SET   0
#define FUTEX_OP_ADD   1
#define FUTEX_OP_OR    2
#define FUTEX_OP_ANDN  3
#define FUTEX_OP_XOR   4
#define FUTEX_OP_OPARG_SHIFT 8
#define FUTEX_OP_CMP_EQ 0
#define FUTEX_OP_CMP_NE 1
#define FUTEX_OP_CMP_LT 2
#define FUTEX_OP_CMP_LE 3
#define FUTEX_OP_CMP_GT 4
#define FUTEX_OP_CMP_GE 5
/* The robust-futex word (a pthread mutex's owner TID) and the list
 * set_robust_list registers, walked at exit (Linux's exit_robust_list). */
#define FUTEX_WAITERS      0x80000000u
#define FUTEX_OWNER_DIED   0x40000000u
#define FUTEX_TID_MASK     0x3fffffffu
struct robust_list {
	struct robust_list *next;
};
struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list *list_op_pending;
};

/* 64-bit time for the *_time64 calls (Linux's struct __kernel_timespec):
 * the upper half of tv_nsec is padding on i386 and ignored. */
struct timespec64 {
	long long tv_sec;
	long long tv_nsec;
};
struct timeval {
	long tv_sec;
	long tv_usec;
};
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID  3
#define CLOCK_MONOTONIC_RAW      4
#define CLOCK_REALTIME_COARSE    5
#define CLOCK_MONOTONIC_COARSE   6
#define CLOCK_BOOTTIME           7
#define TIMER_ABSTIME            1

/* uname(2): Linux's struct new_utsname. */
#define UTS_LEN 65
struct utsname {
	char sysname[UTS_LEN], nodename[UTS_LEN], release[UTS_LEN];
	char version[UTS_LEN], machine[UTS_LEN], domainname[UTS_LEN];
};

/* sysinfo(2), i386 layout (64 bytes). */
struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram;
	unsigned long totalswap, freeswap;
	unsigned short procs, pad;
	unsigned long totalhigh, freehigh;
	unsigned int mem_unit;
	char _f[8];
};

#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define GRND_NONBLOCK 1
#define GRND_RANDOM   2
#define GRND_INSECURE 4

struct timespec {
	long tv_sec;
	long tv_nsec;
};

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1

/* ---- modify_ldt functions ---- */
#define MODIFY_LDT_READ       0
#define MODIFY_LDT_WRITE_OLD  1
#define MODIFY_LDT_WRITE      0x11
#define LDT_ENTRIES           8192

/* ---- signals (abi.md section 7) ---- */
#define SIGHUP   1
#define SIGINT   2
#define SIGQUIT  3
#define SIGILL   4
#define SIGTRAP  5
#define SIGABRT  6
#define SIGBUS   7
#define SIGFPE   8
#define SIGKILL  9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define NSIG    64

#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000

/* siginfo si_code values (Linux's asm-generic/siginfo.h): who sent a
 * signal, or what fault or child event it reports. */
#define SI_USER      0          /* kill() */
#define SI_KERNEL    0x80       /* the kernel, with no more to say */
#define SI_TKILL     (-6)       /* tkill()/tgkill() */
#define ILL_ILLOPN   2          /* SIGILL: illegal operand (#UD) */
#define FPE_INTDIV   1          /* SIGFPE: integer divide by zero (#DE) */
#define FPE_INTOVF   2          /*   integer overflow (not raised on i386) */
#define FPE_FLTDIV   3          /*   floating-point divide by zero (#MF, #XM) */
#define FPE_FLTOVF   4          /*   floating-point overflow */
#define FPE_FLTUND   5          /*   floating-point underflow (or denormal) */
#define FPE_FLTRES   6          /*   floating-point inexact result */
#define FPE_FLTINV   7          /*   invalid operation (and x87 stack fault) */
#define FPE_FLTSUB   8          /*   subscript out of range (not raised on i386) */
#define SEGV_MAPERR  1          /* SIGSEGV: address not mapped */
#define SEGV_ACCERR  2          /* SIGSEGV: mapped, access not allowed */
#define BUS_ADRALN   1          /* SIGBUS: misaligned address (#AC) */
#define TRAP_BRKPT   1          /* SIGTRAP: breakpoint (#DB) */
#define CLD_EXITED   1          /* SIGCHLD: the child called exit */
#define CLD_KILLED   2          /* SIGCHLD: a signal killed it */

struct k_sigaction {            /* the kernel's struct sigaction */
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask[2];
};

/* ---- auxiliary vector (abi.md section 2) ---- */
#define AT_NULL    0
#define AT_PHDR    3
#define AT_PHENT   4
#define AT_PHNUM   5
#define AT_PAGESZ  6
#define AT_ENTRY   9
#define AT_RANDOM 25

/* ---- address space ---- */
#define USER_BASE  0x00001000u  /* page 0 is never mapped */
#define USER_TOP   0xC0000000u  /* the kernel starts here */

#endif
