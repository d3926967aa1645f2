/* kernel/file.c - open files and fd tables (file.h). */
#include "kernel/file.h"
#include "kernel/fs/vfs.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/tty.h"
#include "kernel/mm/kmem.h"
#include "lib/string.h"

/* ---- open files ---- */

struct file *file_open_inode(struct inode *inode, int flags, long *err)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	f->inode = inode;
	f->fop = inode->fop;
	f->mode = OPEN_FMODE(flags);
	/* What F_GETFL reports: the access mode and the status flags, not
	 * the creation flags (O_CREAT, O_EXCL, O_TRUNC, O_CLOEXEC). */
	f->flags = (unsigned)flags & ~(unsigned)(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	f->refcount = 1;
	mutex_init(&f->pos_lock, "f_pos");
	inode_get(inode);
	if (f->fop && f->fop->open && (*err = f->fop->open(f)) < 0) {
		inode_put(inode);
		kfree(f);
		return NULL;
	}
	return f;
}

void file_hold(struct file *f)
{
	__atomic_add_fetch(&f->refcount, 1, __ATOMIC_RELAXED);
}

void file_put(struct file *f)
{
	if (__atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (f->fop && f->fop->release)
		f->fop->release(f);
	inode_put(f->inode);
	kfree(f);
}

/* ---- fd tables ---- */

static struct files *files_alloc(void)
{
	struct files *fs = kzalloc(sizeof(*fs));

	if (fs) {
		fs->refcount = 1;
		fs->lock = (struct spinlock)SPINLOCK_INIT("files");
		fs->max = NR_OPEN_DEFAULT;
		fs->fd = fs->fd_small;
		fs->cloexec = fs->cloexec_small;
	}
	return fs;
}

static void files_free_arrays(struct files *fs)
{
	if (fs->fd != fs->fd_small) {
		kfree(fs->fd);
		kfree(fs->cloexec);
	}
}

static bool fd_is_cloexec(const struct files *fs, unsigned fd)
{
	return (fs->cloexec[fd / 32] >> (fd % 32)) & 1;
}

static void fd_set_cloexec(struct files *fs, unsigned fd, bool on)
{
	if (on)
		fs->cloexec[fd / 32] |= 1u << (fd % 32);
	else
		fs->cloexec[fd / 32] &= ~(1u << (fd % 32));
}

/* Grows fs to at least want slots (a power of two); the lock is dropped
 * to allocate, so the caller looks again afterwards. 0 or -ENOMEM. */
static long files_grow_unlocked(struct files *fs, unsigned want)
{
	unsigned n = NR_OPEN_DEFAULT;
	struct file **fd, **oldfd = NULL;
	uint32_t *ce, *oldce = NULL;

	while (n < want)
		n *= 2;
	fd = kzalloc(n * sizeof(*fd));
	ce = kzalloc(n / 8);
	if (!fd || !ce) {
		kfree(fd);
		kfree(ce);
		return -ENOMEM;
	}
	spin_lock(&fs->lock);
	if (fs->max < n) {
		memcpy(fd, fs->fd, fs->max * sizeof(*fd));
		memcpy(ce, fs->cloexec, fs->max / 8);
		if (fs->fd != fs->fd_small) {
			oldfd = fs->fd;
			oldce = fs->cloexec;
		}
		fs->fd = fd;
		fs->cloexec = ce;
		fs->max = n;
		fd = NULL;
		ce = NULL;
	}
	spin_unlock(&fs->lock);
	kfree(fd);
	kfree(ce);
	kfree(oldfd);
	kfree(oldce);
	return 0;
}

struct file *file_new_console(void)
{
	struct inode *con = dev_console_inode();
	long err;

	return con ? file_open_inode(con, O_RDWR, &err) : NULL;
}

struct files *files_new_console(void)
{
	struct files *fs = files_alloc();
	struct file *con = file_new_console();

	if (!fs || !con) {
		kfree(fs);
		if (con)
			file_put(con);
		return NULL;
	}
	/* As Linux's init does: one open of /dev/console, dup'ed to 1, 2. */
	con->refcount = 3;
	fs->fd[0] = fs->fd[1] = fs->fd[2] = con;
	return fs;
}

struct files *files_copy(struct files *old)
{
	struct files *fs = files_alloc();
	unsigned want;

	if (!fs)
		return NULL;
	for (;;) {
		spin_lock(&old->lock);
		want = old->max;
		if (fs->max >= want) {
			for (unsigned i = 0; i < old->max; i++)
				if ((fs->fd[i] = old->fd[i]) != NULL)
					file_hold(fs->fd[i]);
			memcpy(fs->cloexec, old->cloexec, old->max / 8);
			spin_unlock(&old->lock);
			return fs;
		}
		spin_unlock(&old->lock);
		if (files_grow_unlocked(fs, want) < 0) {
			files_free_arrays(fs);
			kfree(fs);
			return NULL;
		}
	}
}

void files_get(struct files *fs)
{
	__atomic_add_fetch(&fs->refcount, 1, __ATOMIC_RELAXED);
}

void files_put(struct files *fs)
{
	if (__atomic_sub_fetch(&fs->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (unsigned i = 0; i < fs->max; i++)
		if (fs->fd[i])
			file_put(fs->fd[i]);
	files_free_arrays(fs);
	kfree(fs);
}

int files_unshare(struct task *t)
{
	struct files *copy, *old;
	uint32_t flags;

	if (!t->files || __atomic_load_n(&t->files->refcount, __ATOMIC_ACQUIRE) == 1)
		return 0;
	if (!(copy = files_copy(t->files)))
		return -ENOMEM;
	/* Swapped under tasklist_lock, put after: /proc/PID/status reads
	 * t->files under it (kernel/fs/proc_status.c). */
	flags = spin_lock_irqsave(&tasklist_lock);
	old = t->files;
	t->files = copy;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	files_put(old);
	return 0;
}

/* execve has made the table the caller's own (or it is shared by
 * CLONE_FILES, and then, as Linux does, the others lose the fds too). */
void files_close_on_exec(struct files *fs)
{
	for (;;) {
		struct file *f = NULL;

		spin_lock(&fs->lock);
		for (unsigned i = 0; i < fs->max && !f; i++)
			if (fs->fd[i] && fd_is_cloexec(fs, i)) {
				f = fs->fd[i];
				fs->fd[i] = NULL;
				fd_set_cloexec(fs, i, false);
			}
		spin_unlock(&fs->lock);
		if (!f)
			return;
		file_put(f);            /* may sleep: not under the lock */
	}
}

/* The reference keeps f alive if another thread of a CLONE_FILES group
 * closes fd while we use it. */
struct file *fd_get(struct files *fs, int fd)
{
	struct file *f = NULL;

	if (!fs || fd < 0)
		return NULL;
	spin_lock(&fs->lock);
	if ((unsigned)fd < fs->max && (f = fs->fd[fd]) != NULL)
		file_hold(f);
	spin_unlock(&fs->lock);
	return f;
}

unsigned long nofile_limit(void)
{
	unsigned long n = current->rlim[RLIMIT_NOFILE].rlim_cur;

	return n > NR_OPEN_MAX ? NR_OPEN_MAX : n;
}

long fd_install(struct files *fs, struct file *f, int min, bool cloexec)
{
	unsigned long limit = nofile_limit();

	if (min < 0 || (unsigned long)min >= limit)
		return min < 0 ? -EINVAL : -EMFILE;
	for (;;) {
		unsigned i, max;

		spin_lock(&fs->lock);
		max = fs->max < limit ? fs->max : (unsigned)limit;
		for (i = (unsigned)min; i < max; i++)
			if (!fs->fd[i]) {
				fs->fd[i] = f;
				fd_set_cloexec(fs, i, cloexec);
				spin_unlock(&fs->lock);
				return i;
			}
		max = fs->max;
		spin_unlock(&fs->lock);
		if (max >= limit)
			return -EMFILE;
		if (files_grow_unlocked(fs, max * 2) < 0)
			return -ENOMEM;
	}
}

/* open's first check, as Linux reserves the fd before the lookup. */
long fd_check_free(struct files *fs)
{
	unsigned long limit = nofile_limit();
	long r = -EMFILE;

	spin_lock(&fs->lock);
	if (fs->max < limit)
		r = 0;                  /* the table can grow */
	for (unsigned i = 0; i < fs->max && i < limit && r < 0; i++)
		if (!fs->fd[i])
			r = 0;
	spin_unlock(&fs->lock);
	return r;
}

long do_close(struct files *fs, int fd)
{
	struct file *f = NULL;

	if (!fs || fd < 0)
		return -EBADF;
	spin_lock(&fs->lock);
	if ((unsigned)fd < fs->max) {
		f = fs->fd[fd];
		fs->fd[fd] = NULL;
		fd_set_cloexec(fs, (unsigned)fd, false);
	}
	spin_unlock(&fs->lock);
	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

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

/* ---- the system calls: the calling task's fd table ---- */

SYSCALL(SYS_close, close)
{
	return do_close(current->files, (int)arg[0]);
}
