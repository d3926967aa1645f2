/* compat/linux/fd.c - calls on fds as such: dup, dup2, dup3, fcntl,
 * close_range, and the resource limits (RLIMIT_NOFILE bounds the fd
 * table: file.h). */
#include "kernel/file.h"
#include "compat/linux/fs/vfs.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "compat/linux/layer.h"
#include "lib/string.h"



/* dup2 and dup3: newfd becomes another fd of oldfd's file; whatever
 * newfd was is closed (after, as Linux: the swap is atomic). */
long do_dup3(struct files *fs, int oldfd, int newfd, int flags)
{
	struct file *f, *old = NULL;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (!(f = fd_get(fs, oldfd)))
		return -EBADF;
	if (newfd < 0 || (unsigned long)newfd >= nofile_limit()) {
		file_put(f);
		return -EBADF;
	}
	for (;;) {
		spin_lock(&fs->lock);
		if ((unsigned)newfd < fs->max)
			break;
		spin_unlock(&fs->lock);
		if (files_grow_unlocked(fs, (unsigned)newfd + 1) < 0) {
			file_put(f);
			return -ENOMEM;
		}
	}
	if (fs->fd[oldfd] != f) {       /* closed meanwhile */
		spin_unlock(&fs->lock);
		file_put(f);
		return -EBADF;
	}
	old = fs->fd[newfd];
	fs->fd[newfd] = f;              /* takes over fd_get's reference */
	fd_set_cloexec(fs, (unsigned)newfd, flags & O_CLOEXEC);
	spin_unlock(&fs->lock);
	if (old)
		file_put(old);
	return newfd;
}

/* fcntl's F_GETFD / F_SETFD. */
long fd_cloexec(struct files *fs, int fd, int set)
{
	long r = -EBADF;

	spin_lock(&fs->lock);
	if (fd >= 0 && (unsigned)fd < fs->max && fs->fd[fd]) {
		if (set >= 0)
			fd_set_cloexec(fs, (unsigned)fd, set & FD_CLOEXEC);
		r = fd_is_cloexec(fs, (unsigned)fd) ? FD_CLOEXEC : 0;
	}
	spin_unlock(&fs->lock);
	return set >= 0 && r >= 0 ? 0 : r;
}

/* close_range(first, last, flags), Linux 5.9's (fs/file.c
 * __close_range): closes every open fd from first to last (last ~0:
 * all), or with CLOSE_RANGE_CLOEXEC marks them close-on-exec instead.
 * CLOSE_RANGE_UNSHARE first gives the caller a table of its own if
 * CLONE_FILES shares it, as execve does. 0 even when none was open;
 * first > last or another flag is -EINVAL. glibc's closefrom calls it. */
#define CLOSE_RANGE_UNSHARE (1u << 1)
#define CLOSE_RANGE_CLOEXEC (1u << 2)

LINUX_SYSCALL(SYS_close_range, close_range)
{
	uint32_t fd = arg[0], last = arg[1], flags = arg[2];
	struct files *fs;
	long err;

	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || fd > last)
		return -EINVAL;
	if ((flags & CLOSE_RANGE_UNSHARE) && (err = files_unshare(current)) < 0)
		return err;
	fs = current->files;
	for (;;) {
		struct file *f = NULL;

		/* fs->max bounds fd (a table holds at most NR_OPEN_MAX), so
		 * last = ~0 cannot wrap it. */
		spin_lock(&fs->lock);
		for (; fd < fs->max && fd <= last && !f; fd++) {
			if (!fs->fd[fd])
				continue;
			if (flags & CLOSE_RANGE_CLOEXEC) {
				fd_set_cloexec(fs, fd, true);
				continue;
			}
			f = fs->fd[fd];
			fs->fd[fd] = NULL;
			fd_set_cloexec(fs, fd, false);
		}
		spin_unlock(&fs->lock);
		if (!f)
			return 0;
		file_put(f);            /* may sleep: not under the lock */
	}
}

LINUX_SYSCALL(SYS_dup, dup)
{
	struct file *f = fd_get(current->files, (int)arg[0]);
	long fd;

	if (!f)
		return -EBADF;
	if ((fd = fd_install(current->files, f, 0, false)) < 0)
		file_put(f);
	return fd;
}

LINUX_SYSCALL(SYS_dup2, dup2)
{
	int oldfd = (int)arg[0], newfd = (int)arg[1];

	if (oldfd == newfd) {           /* Linux: just check oldfd */
		struct file *f = fd_get(current->files, oldfd);
		if (!f)
			return -EBADF;
		file_put(f);
		return newfd;
	}
	return do_dup3(current->files, oldfd, newfd, 0);
}

LINUX_SYSCALL(SYS_dup3, dup3)
{
	if ((int)arg[0] == (int)arg[1])
		return -EINVAL;
	return do_dup3(current->files, (int)arg[0], (int)arg[1], (int)arg[2]);
}

static long do_fcntl(int fd, unsigned cmd, uint32_t a)
{
	struct files *fs = current->files;
	struct file *f = fd_get(fs, fd);
	long r;

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if ((int)a < 0 || a >= nofile_limit()) {
			r = -EINVAL;
			break;
		}
		if ((r = fd_install(fs, f, (int)a, cmd == F_DUPFD_CLOEXEC)) >= 0)
			return r;       /* the table has our reference now */
		break;
	case F_GETFD:
		r = fd_cloexec(fs, fd, -1);
		break;
	case F_SETFD:
		r = fd_cloexec(fs, fd, (int)(a & FD_CLOEXEC));
		break;
	case F_GETFL:
		r = (long)f->flags;
		break;
	case F_SETFL:
		/* Only O_APPEND and O_NONBLOCK change; the access mode and
		 * creation flags are ignored, as Linux ignores them. */
		__atomic_store_n(&f->flags, (f->flags & ~(unsigned)SETFL_MASK) | (a & SETFL_MASK),
				 __ATOMIC_RELAXED);
		r = 0;
		break;
	default:
		r = -EINVAL;
	}
	file_put(f);
	return r;
}

LINUX_SYSCALL(SYS_fcntl, fcntl)
{
	return do_fcntl((int)arg[0], arg[1], arg[2]);
}

LINUX_SYSCALL(SYS_fcntl64, fcntl64)
{
	return do_fcntl((int)arg[0], arg[1], arg[2]);
}

/* ---- resource limits ----
 *
 * Every process has Linux's sixteen limits, inherited by fork and clone,
 * shared by the threads of a group (setrlimit sets them on each).
 * RLIMIT_NOFILE is enforced (the fd table); the others are kept and
 * reported as Linux's defaults or what was set, and enforced where
 * Spindle has the resource (docs/files.md says which). */

/* Linux's INIT_RLIMITS (include/asm-generic/resource.h), indexed by
 * resource: infinite but where Linux says otherwise. Numbers 10..15 are
 * RLIMIT_LOCKS, SIGPENDING (left unset), MSGQUEUE, NICE, RTPRIO, RTTIME. */
#define RLIM_INF { RLIM_INFINITY, RLIM_INFINITY }
static const struct rlimit init_rlimits[RLIM_NLIMITS] = {
	[RLIMIT_CPU] = RLIM_INF,
	[RLIMIT_FSIZE] = RLIM_INF,
	[RLIMIT_DATA] = RLIM_INF,
	[RLIMIT_STACK] = { 8u << 20, RLIM_INFINITY },
	[RLIMIT_CORE] = { 0, RLIM_INFINITY },
	[RLIMIT_RSS] = RLIM_INF,
	[RLIMIT_NPROC] = RLIM_INF,
	[RLIMIT_NOFILE] = { INR_OPEN_CUR, INR_OPEN_MAX },
	[RLIMIT_MEMLOCK] = { 8u << 20, 8u << 20 },
	[RLIMIT_AS] = RLIM_INF,
	[10] = RLIM_INF,
	[11] = { 0, 0 },
	[12] = { 819200, 819200 },
	[13] = { 0, 0 },
	[14] = { 0, 0 },
	[15] = RLIM_INF,
};

/* One copy of a constant table, for a task that has no parent to copy
 * (an idle task, a kernel thread: linux_task_init). */
void rlimit_init_defaults(struct rlimit *r)
{
	memcpy(r, init_rlimits, sizeof(init_rlimits));
}

struct rlimit *task_rlimits(struct task *t)
{
	return t->group_leader->lx.rlim;
}

/* The limits of pid's process (0: our own) under tasklist_lock: read
 * into *old and, when new is given, set. They are the process's, kept
 * in its leader (task_rlimits): one store, and a thread that clone is
 * making meanwhile reads the new value the moment it runs (with a copy
 * in each thread, a setrlimit between clone's copy and the thread's
 * joining the group missed it). */
static long rlimit_access(int pid, int res, const struct rlimit *new, struct rlimit *old)
{
	struct task *t = current;
	uint32_t flags;

	if ((unsigned)res >= RLIM_NLIMITS)
		return -EINVAL;
	/* Linux's do_prlimit: cur <= max, NOFILE at most nr_open; every
	 * user is root here, so raising the hard limit is allowed. */
	if (new && new->rlim_cur > new->rlim_max)
		return -EINVAL;
	if (new && res == RLIMIT_NOFILE && new->rlim_max > NR_OPEN_MAX)
		return -EPERM;
	flags = spin_lock_irqsave(&tasklist_lock);
	if (pid != 0 && pid != current->tgid) {
		t = task_find(pid);
		if (!t || t->tgid != pid || !t->mm || t->state == TASK_ZOMBIE ||
		    t->state == TASK_DEAD) {
			spin_unlock_irqrestore(&tasklist_lock, flags);
			return -ESRCH;
		}
	}
	if (old)
		*old = task_rlimits(t)[res];
	if (new)
		task_rlimits(t)[res] = *new;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return 0;
}

LINUX_SYSCALL(SYS_ugetrlimit, ugetrlimit)
{
	struct rlimit r;
	long err = rlimit_access(0, (int)arg[0], NULL, &r);

	if (err == 0 && copy_to_user(arg[1], &r, sizeof(r)))
		err = -EFAULT;
	return err;
}

/* The old getrlimit: values that do not fit a signed long read as
 * 0x7fffffff (Linux's sys_old_getrlimit). */
LINUX_SYSCALL(SYS_getrlimit, getrlimit)
{
	struct rlimit r;
	long err = rlimit_access(0, (int)arg[0], NULL, &r);

	if (err < 0)
		return err;
	if (r.rlim_cur > 0x7fffffff)
		r.rlim_cur = 0x7fffffff;
	if (r.rlim_max > 0x7fffffff)
		r.rlim_max = 0x7fffffff;
	if (copy_to_user(arg[1], &r, sizeof(r)))
		return -EFAULT;
	return 0;
}

LINUX_SYSCALL(SYS_setrlimit, setrlimit)
{
	struct rlimit r;

	if ((unsigned)arg[0] >= RLIM_NLIMITS)
		return -EINVAL;
	if (copy_from_user(&r, arg[1], sizeof(r)))
		return -EFAULT;
	return rlimit_access(0, (int)arg[0], &r, NULL);
}

static unsigned long from64(unsigned long long v)
{
	return v >= RLIM_INFINITY ? RLIM_INFINITY : (unsigned long)v;
}

static unsigned long long to64(unsigned long v)
{
	return v == RLIM_INFINITY ? RLIM64_INFINITY : v;
}

/* prlimit64(pid, resource, new, old): pid 0 is the caller's process. */
LINUX_SYSCALL(SYS_prlimit64, prlimit64)
{
	struct rlimit64 n64, o64;
	struct rlimit n, o;
	long err;

	if (arg[2] && copy_from_user(&n64, arg[2], sizeof(n64)))
		return -EFAULT;
	if (arg[2] && n64.rlim_cur > n64.rlim_max)
		return -EINVAL;
	n.rlim_cur = from64(n64.rlim_cur);
	n.rlim_max = from64(n64.rlim_max);
	if ((err = rlimit_access((int)arg[0], (int)arg[1], arg[2] ? &n : NULL, &o)) < 0)
		return err;
	o64.rlim_cur = to64(o.rlim_cur);
	o64.rlim_max = to64(o.rlim_max);
	if (arg[3] && copy_to_user(arg[3], &o64, sizeof(o64)))
		return -EFAULT;
	return 0;
}

/* The fd table's limit (kernel/file.c nofile_limit): RLIMIT_NOFILE. */
unsigned long linux_nofile_limit(unsigned long dflt)
{
	(void)dflt;
	return task_rlimits(current)[RLIMIT_NOFILE].rlim_cur;
}
