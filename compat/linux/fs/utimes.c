/* compat/linux/fs/utimes.c - utimensat and utimensat_time64 (abi.md section
 * 9), after Linux 6.1's fs/utimes.c: set a file's access and
 * modification times (busybox's and coreutils' `touch`; glibc 2.36 calls
 * utimensat_time64 first, then utimensat).
 *
 * utimensat(dirfd, path, times, flags): times NULL sets both to now;
 * otherwise times[0] is the access time and times[1] the modification
 * time, each a timespec whose tv_nsec may be UTIME_NOW (now) or
 * UTIME_OMIT (left as it is). Linux's answers, in its order:
 *   - both UTIME_OMIT: 0 at once, the path not even looked at;
 *   - a tv_nsec that is neither in [0, 999999999] nor a UTIME_*: -EINVAL;
 *   - flags other than AT_SYMLINK_NOFOLLOW (the link itself) and
 *     AT_EMPTY_PATH (path "" is dirfd's file): -EINVAL;
 *   - path NULL: the file open at dirfd (glibc's futimens), flags must be
 *     0 (-EINVAL) and dirfd open (-EBADF); with AT_FDCWD, -EFAULT;
 *   - a bad pointer: -EFAULT; the lookup's errors.
 * The change time becomes now whenever a time is set.
 *
 * Spindle keeps times as unsigned nanoseconds since 1970 (struct inode),
 * so a time before 1970 (or after 2554) is -EINVAL here, where Linux
 * stores it. /proc's files are made afresh at each lookup: setting their
 * times is -EPERM, as chmod. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"

#define NSEC_PER_SEC 1000000000ll
/* The largest time in nanoseconds an unsigned 64-bit count holds, in
 * whole seconds. */
#define MAX_SEC ((long long)(UINT64_MAX / NSEC_PER_SEC) - 1)

struct ts {
	long long sec;
	long nsec;
};

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec < NSEC_PER_SEC);
}

static void set_times(struct inode *i, const struct ts *t)
{
	uint64_t now = fs_now();

	mutex_lock(&i->mutex);
	if (!t || t[0].nsec != UTIME_OMIT)
		i->atime = !t || t[0].nsec == UTIME_NOW ? now :
			(uint64_t)t[0].sec * NSEC_PER_SEC + (uint64_t)t[0].nsec;
	if (!t || t[1].nsec != UTIME_OMIT)
		i->mtime = !t || t[1].nsec == UTIME_NOW ? now :
			(uint64_t)t[1].sec * NSEC_PER_SEC + (uint64_t)t[1].nsec;
	i->ctime = now;
	mutex_unlock(&i->mutex);
}

/* Linux's do_utimes on times already in the kernel (t NULL: now). */
static long do_utimes(int dirfd, uint32_t upath, const struct ts *t, uint32_t flags)
{
	struct inode *i;
	long err;

	if (t && (!nsec_valid(t[0].nsec) || !nsec_valid(t[1].nsec)))
		return -EINVAL;
	for (int k = 0; t && k < 2; k++)
		if (t[k].nsec != UTIME_OMIT && t[k].nsec != UTIME_NOW &&
		    (t[k].sec < 0 || t[k].sec > MAX_SEC))
			return -EINVAL;         /* not representable here (above) */
	if (flags & ~(uint32_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!upath && dirfd != AT_FDCWD) {
		struct file *f;

		if (flags)
			return -EINVAL;
		if (!(f = fd_get(current->files, dirfd)))
			return -EBADF;
		i = f->inode;
		inode_get(i);
		file_put(f);
	} else if ((err = user_path_at(dirfd, upath,
				       (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				       (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0), &i)) < 0) {
		return err;
	}
	err = 0;
	if (i->dev == DEV_PROC)
		err = -EPERM;
	else
		set_times(i, t);
	inode_put(i);
	return err;
}

/* i386's struct timespec: two 32-bit words. */
LINUX_SYSCALL(SYS_utimensat, utimensat)
{
	int32_t u[4];
	struct ts t[2];

	if (arg[2]) {
		if (copy_from_user(u, arg[2], sizeof(u)))
			return -EFAULT;
		t[0] = (struct ts){ u[0], u[1] };
		t[1] = (struct ts){ u[2], u[3] };
		if (t[0].nsec == UTIME_OMIT && t[1].nsec == UTIME_OMIT)
			return 0;
	}
	return do_utimes((int)arg[0], arg[1], arg[2] ? t : NULL, arg[3]);
}

/* struct __kernel_timespec: a 64-bit tv_sec and a 64-bit tv_nsec, of
 * which a 32-bit kernel takes the low half (Linux's get_timespec64). */
LINUX_SYSCALL(SYS_utimensat_time64, utimensat_time64)
{
	int64_t u[4];
	struct ts t[2];

	if (arg[2]) {
		if (copy_from_user(u, arg[2], sizeof(u)))
			return -EFAULT;
		t[0] = (struct ts){ u[0], (long)(int32_t)u[1] };
		t[1] = (struct ts){ u[2], (long)(int32_t)u[3] };
		if (t[0].nsec == UTIME_OMIT && t[1].nsec == UTIME_OMIT)
			return 0;
	}
	return do_utimes((int)arg[0], arg[1], arg[2] ? t : NULL, arg[3]);
}
