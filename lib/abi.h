/* lib/abi.h - the user ABI of docs/abi.md, as C.
 *
 * One header for both sides of int $0x80: the kernel includes it to
 * implement the contract, user programs to call it. Numbers are Linux
 * i386's so students can compare the two side by side. */
#ifndef LIB_ABI_H
#define LIB_ABI_H

#include "lib/errno.h"

/* ---- System call numbers (abi.md sections 3 and 9) ---- */
/* ---- System call numbers (abi.md section 3; the Linux layer's, section 9,
 * are in lib/abi_linux.h) ---- */
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
#define SYS_set_thread_area 243
#define SYS_get_thread_area 244
#define SYS_exit_group     252
#define SYS_clock_gettime  265
#define SYS_tgkill         270

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

/* ---- files (abi.md section 3: read-only initrd files; Linux i386's
 * values, the rest in lib/abi_linux.h) ---- */
#define O_RDONLY    00
#define O_WRONLY    01
#define O_RDWR      02
#define O_ACCMODE   03
#define O_CREAT     0100
#define O_EXCL      0200
#define O_NOCTTY    0400
#define O_TRUNC     01000
#define O_APPEND    02000
#define O_NONBLOCK  04000
#define O_DSYNC     010000
#define O_LARGEFILE 0100000
#define O_DIRECTORY 0200000
#define O_NOFOLLOW  0400000
#define O_NOATIME   01000000
#define O_CLOEXEC   02000000
#define O_SYNC      04010000
#define O_PATH      010000000
#define AT_FDCWD            (-100)  /* the *at calls: relative to the cwd */

/* ---- wait4 options ---- */
#define WNOHANG   0x00000001
#define __WALL    0x40000000
#define __WCLONE  0x80000000

/* ---- wait statuses (abi.md section 3), Linux's encoding: exited, the
 * code in bits 8-15; killed, the signal in bits 0-6; stopped (job
 * control, section 9), 0x7f with the stop signal above it; continued,
 * 0xffff. The W_* build one, the others read one. ---- */
#define W_EXITCODE(code) (((code) & 0xff) << 8)
#define W_STOPCODE(sig)  (((sig) << 8) | 0x7f)
#define W_CONTINUED      0xffff
#define WEXITSTATUS(s)   (((s) >> 8) & 0xff)
#define WTERMSIG(s)      ((s) & 0x7f)
#define WIFEXITED(s)     (WTERMSIG(s) == 0)
#define WIFSIGNALED(s)   (WTERMSIG(s) != 0 && WTERMSIG(s) != 0x7f)
#define WIFSTOPPED(s)    (((s) & 0xff) == 0x7f)
#define WSTOPSIG(s)      WEXITSTATUS(s)
#define WIFCONTINUED(s)  ((s) == W_CONTINUED)

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
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu    /* every waiter (FUTEX_WAIT's bitset) */

struct timespec {
	long tv_sec;
	long tv_nsec;
};

#define CLOCK_REALTIME  0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID  3
#define CLOCK_MONOTONIC_RAW      4
#define CLOCK_REALTIME_COARSE    5
#define CLOCK_MONOTONIC_COARSE   6
#define CLOCK_BOOTTIME           7
#define TIMER_ABSTIME            1

/* 64-bit time for the *_time64 calls (Linux's struct __kernel_timespec):
 * the upper half of tv_nsec is padding on i386 and ignored. */
struct timespec64 {
	long long tv_sec;
	long long tv_nsec;
};

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
#define SIGTSTP 20              /* the terminal's stops (compat/linux/jobctl.c) */
#define SIGTTIN 21
#define SIGTTOU 22
#define NSIG    64

#define SA_NOCLDSTOP 0x00000001 /* SIGCHLD: not for a child's stop or continue */
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_RESTART   0x10000000 /* an interrupted call is made again (compat/linux/restart.h) */
#define SA_ONSTACK   0x08000000 /* the frame on the sigaltstack */

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
#define TRAP_TRACE   2          /* SIGTRAP: single step (#DB, DR6.BS) */
#define TRAP_HWBKPT  4          /* SIGTRAP: debug-register breakpoint */
#define CLD_EXITED   1          /* SIGCHLD: the child called exit */
#define CLD_KILLED   2          /* SIGCHLD: a signal killed it */
#define CLD_DUMPED   3          /* ... and it dumped core (never here) */
#define CLD_STOPPED  5          /* SIGCHLD: a stop signal stopped it */
#define CLD_CONTINUED 6         /* SIGCHLD: SIGCONT continued it */

struct k_sigaction {            /* the kernel's struct sigaction */
	void *handler;
	unsigned long flags;
	void *restorer;
	unsigned long mask[2];
};

/* ---- auxiliary vector (abi.md section 2) ---- */
#define AT_NULL      0
#define AT_PHDR      3
#define AT_PHENT     4
#define AT_PHNUM     5
#define AT_PAGESZ    6
#define AT_BASE      7          /* the interpreter's base: 0, static programs */
#define AT_FLAGS     8
#define AT_ENTRY     9
#define AT_UID      11
#define AT_EUID     12
#define AT_GID      13
#define AT_EGID     14
#define AT_PLATFORM 15          /* -> "i686" */
#define AT_HWCAP    16          /* CPUID.1:EDX */
#define AT_CLKTCK   17          /* clock_t ticks per second: 100 */
#define AT_SECURE   23
#define AT_RANDOM   25
#define AT_HWCAP2   26
#define AT_EXECFN   31          /* -> the path execve was given */

/* ---- address space ---- */
#define USER_BASE  0x00001000u  /* page 0 is never mapped */
#define USER_TOP   0xC0000000u  /* the kernel starts here */

#define RLIM_INFINITY   (~0UL)   /* no limit (getrlimit: lib/abi_linux.h) */

#endif
