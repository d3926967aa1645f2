/* user/linux/lx_groups.c - getgroups as glibc and busybox's `id` call it
 * (compat/linux/uname.c): root, the one user, has no supplementary groups, as
 * Linux's init has none. Each expectation is Linux 6.1's for a process
 * with an empty group list (checked on Linux after setgroups(0, NULL)
 * as root: the case runs that first where it may). */
#define _GNU_SOURCE
#define LX_PROG "lx_groups"
#include "lx.h"
#include <errno.h>
#include <grp.h>
#include <sys/syscall.h>
#include <unistd.h>

TEST(no_supplementary_groups)
{
	gid_t list[64];

	/* On Linux, start from an empty list (Spindle has no setgroups:
	 * there is only ever the empty one). */
	(void)setgroups(0, NULL);
	for (int k = 0; k < 64; k++)
		list[k] = 12345;
	EXPECT_EQ(getgroups(0, NULL), 0);
	EXPECT_EQ(getgroups(64, list), 0);
	EXPECT_EQ(list[0], 12345);               /* nothing written */
	EXPECT_EQ(syscall(SYS_getgroups32, 64, list), 0);
	EXPECT_EQ(syscall(SYS_getgroups, 64, list), 0);      /* 16-bit ids */
}

TEST(negative_size_is_einval)
{
	errno = 0;
	EXPECT_EQ(syscall(SYS_getgroups32, -1, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	EXPECT_EQ(syscall(SYS_getgroups, -1, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
}

int main(void)
{
	RUN(no_supplementary_groups);
	RUN(negative_size_is_einval);
	return lx_exit_code();
}
