/* user/lib/errno.c - errno's storage and the libc return convention. */
#include "errno.h"
#include "syscall.h"

static int errno_value;         /* one per thread, once there are threads */

int *__errno_location(void)
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
