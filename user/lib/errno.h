/* user/lib/errno.h - errno and the error numbers (lib/errno.h, Linux's).
 *
 * errno is a macro over __errno_location(), as in glibc: one errno in a
 * program without threads (errno.c), one per thread in a program that
 * uses pthreads (a __thread variable, pthread_misc.c). */
#ifndef USER_ERRNO_H
#define USER_ERRNO_H

#include "lib/errno.h"

int *__errno_location(void);
#define errno (*__errno_location())

/* The libc convention for a raw result r: r < 0 (and >= -4095) is
 * -errno: set errno and return -1; else return r. */
long __syscall_ret(long r);

#endif
