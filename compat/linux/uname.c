/* compat/linux/uname.c - who the machine and the user are: uname, the 32-bit
 * user and group id calls (getresuid32 and getresgid32 too), and prctl's
 * task name (abi.md section 9).
 *
 * uname is where the two personalities differ: a Linux program is told
 * it runs on Linux (glibc checks the release against the oldest kernel
 * it supports, 3.2 for glibc 2.36), a Spindle program that it runs on
 * Spindle. Spindle has one user, root: every id is 0, and changing to
 * any other id is refused with -EPERM (there is nobody else to be). */
#include "compat/linux/personality.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define UTS_RELEASE "6.1.0-spindle"
#define UTS_VERSION "#1 SMP Spindle 0.1 (a teaching kernel)"

LINUX_SYSCALL(SYS_uname, uname)
{
	struct utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, current->lx.personality == PERSONALITY_LINUX ? "Linux" : "Spindle",
		sizeof(u.sysname));
	strlcpy(u.nodename, "spindle", sizeof(u.nodename));
	strlcpy(u.release, UTS_RELEASE, sizeof(u.release));
	strlcpy(u.version, UTS_VERSION, sizeof(u.version));
	strlcpy(u.machine, "i686", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(arg[0], &u, sizeof(u)) ? -EFAULT : 0;
}

/* One user: root. */
LINUX_SYSCALL(SYS_getuid32, getuid32) { return 0; }
LINUX_SYSCALL(SYS_getgid32, getgid32) { return 0; }
LINUX_SYSCALL(SYS_geteuid32, geteuid32) { return 0; }
LINUX_SYSCALL(SYS_getegid32, getegid32) { return 0; }

/* getresuid32(ruid, euid, suid) and getresgid32: all three ids are 0;
 * each pointer must be writable (-EFAULT), as Linux puts all three. */
static long put_three_zeros(const uint32_t *arg)
{
	uint32_t zero = 0;

	for (int k = 0; k < 3; k++)
		if (copy_to_user(arg[k], &zero, sizeof(zero)))
			return -EFAULT;
	return 0;
}

LINUX_SYSCALL(SYS_getresuid32, getresuid32) { return put_three_zeros(arg); }
LINUX_SYSCALL(SYS_getresgid32, getresgid32) { return put_three_zeros(arg); }

/* getgroups(size, list): root has no supplementary groups (nor has
 * Linux's init): 0, with nothing written; a negative size is -EINVAL.
 * setgroups stays -ENOSYS: there would be nowhere to keep a list. */
LINUX_SYSCALL(SYS_getgroups, getgroups) { return (int)arg[0] < 0 ? -EINVAL : 0; }
LINUX_SYSCALL(SYS_getgroups32, getgroups32) { return (int)arg[0] < 0 ? -EINVAL : 0; }

/* Becoming root again is allowed; any other id does not exist. */
LINUX_SYSCALL(SYS_setuid32, setuid32) { return arg[0] == 0 ? 0 : -EPERM; }
LINUX_SYSCALL(SYS_setgid32, setgid32) { return arg[0] == 0 ? 0 : -EPERM; }

/* prctl(option, arg2, ...): PR_SET_NAME and PR_GET_NAME, the calling
 * thread's comm (what ps shows), 15 characters and a NUL; a longer name
 * is cut, as Linux. Every other option: -EINVAL, as Linux answers an
 * option it does not know. */
LINUX_SYSCALL(SYS_prctl, prctl)
{
	char comm[TASK_COMM_LEN];

	switch (arg[0]) {
	case PR_SET_NAME:
		memset(comm, 0, sizeof(comm));
		for (unsigned i = 0; i < sizeof(comm) - 1; i++) {
			if (copy_from_user(&comm[i], arg[1] + i, 1))
				return -EFAULT;
			if (!comm[i])
				break;
		}
		memcpy(current->comm, comm, sizeof(comm));
		return 0;
	case PR_GET_NAME:
		memcpy(comm, current->comm, sizeof(comm));
		comm[sizeof(comm) - 1] = 0;
		return copy_to_user(arg[1], comm, sizeof(comm)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}
