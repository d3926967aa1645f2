/* user/lib/syscall.h - the raw system call instruction (syscall.S).
 *
 * raw_syscallN(nr, a1, ..., aN) performs int $0x80 and returns %eax as the
 * kernel left it: a result, or -errno on failure (abi.md section 3). It
 * never touches errno. The numbers are lib/abi.h's SYS_*. raw.h wraps
 * these per call with C types; unistd.h and friends are the usual libc
 * functions on top. */
#ifndef USER_SYSCALL_H
#define USER_SYSCALL_H

#include "lib/abi_linux.h"

long raw_syscall0(long nr);
long raw_syscall1(long nr, long a1);
long raw_syscall2(long nr, long a1, long a2);
long raw_syscall3(long nr, long a1, long a2, long a3);
long raw_syscall4(long nr, long a1, long a2, long a3, long a4);
long raw_syscall5(long nr, long a1, long a2, long a3, long a4, long a5);
long raw_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/* A raw result is an error when it is in [-4095, -1], as on Linux: a
 * successful mmap2 may return an address with the top bit set. */
#define RAW_IS_ERR(r) ((unsigned long)(r) >= (unsigned long)-4095)

#endif
