/* user/lib/errno.c - errno's storage and the libc return convention. */
#include "errno.h"
#include "syscall.h"

/* One errno for a program without threads. It is weak: a program that
 * uses pthreads links pthread_misc.c, whose __errno_location returns the
 * calling thread's own __thread errno, and that one wins. (Here it cannot
 * be a __thread variable: every program would get a PT_TLS segment and
 * have to set up %gs before main; abi.md section 2 says a program starts
 * with %gs = 0 and the TLS slots empty, and the tests check main sees
 * exactly that.) */
static int errno_value;

__attribute__((weak)) int *__errno_location(void)
{
	return &errno_value;
}

long __syscall_ret(long r)
{
	if (RAW_IS_ERR(r)) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
