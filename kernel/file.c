/* kernel/file.c - open files and fd tables (file.h). */
#include "kernel/file.h"
#include "kernel/console.h"
#include "kernel/initrd.h"
#include "kernel/linux_hooks.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

/* ---- open files ---- */

struct file *file_new(const struct file_ops *fop, int flags, long *err)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	f->fop = fop;
	f->mode = OPEN_FMODE(flags);
	/* What F_GETFL reports: the access mode and the status flags, not
	 * the creation flags (O_CREAT, O_EXCL, O_TRUNC, O_CLOEXEC). */
	f->flags = (unsigned)flags & ~(unsigned)(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	f->refcount = 1;
	mutex_init(&f->pos_lock, "f_pos");
	return f;
}

static void file_hold(struct file *f)
{
	__atomic_add_fetch(&f->refcount, 1, __ATOMIC_RELAXED);
}

void file_put(struct file *f)
{
	if (__atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (f->fop->release)
		f->fop->release(f);
	linux_file_free(f);             /* the inode behind it, if any */
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

bool fd_is_cloexec(const struct files *fs, unsigned fd)
{
	return (fs->cloexec[fd / 32] >> (fd % 32)) & 1;
}

void fd_set_cloexec(struct files *fs, unsigned fd, bool on)
{
	if (on)
		fs->cloexec[fd / 32] |= 1u << (fd % 32);
	else
		fs->cloexec[fd / 32] &= ~(1u << (fd % 32));
}

/* A power of two of slots. */
long files_grow_unlocked(struct files *fs, unsigned want)
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
	/* No task points at fs any more; a /proc reader that found it
	 * before may still look at it (task.h, tasklist_lock_grace). */
	tasklist_lock_grace();
	for (unsigned i = 0; i < fs->max; i++)
		if (fs->fd[i])
			file_put(fs->fd[i]);
	files_free_arrays(fs);
	kfree(fs);
}

int files_unshare(struct task *t)
{
	struct files *copy, *old = t->files;

	if (!t->files || __atomic_load_n(&t->files->refcount, __ATOMIC_ACQUIRE) == 1)
		return 0;
	if (!(copy = files_copy(t->files)))
		return -ENOMEM;
	/* One store, then the put: /proc/PID/status reads t->files under
	 * tasklist_lock, and the last put waits for it (tasklist_lock_grace,
	 * kernel/task.h). */
	__atomic_store_n(&t->files, copy, __ATOMIC_RELEASE);
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
	/* RLIMIT_NOFILE with the Linux layer; else Linux's default. */
	unsigned long n = linux_nofile_limit(INR_OPEN_CUR);

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

/* ---- opening files by name ---- */

char *getname(uint32_t upath, long *err)
{
	char *buf = kmalloc(PATH_MAX);
	long n;

	if (!buf) {
		*err = -ENOMEM;
		return NULL;
	}
	if ((n = strncpy_from_user(buf, upath, PATH_MAX)) < 0) {
		kfree(buf);
		*err = n;
		return NULL;
	}
	return buf;
}

long do_open(struct files *fs, const char *path, int flags, unsigned mode)
{
	struct file *f;
	long err, fd;

	/* The Linux layer's RAM file system, devices and /proc, if it is in. */
	if (linux_layer_present())
		return linux_openat(fs, AT_FDCWD, path, flags, mode);
	if (!fs)
		return -EMFILE;
	if (!*path)
		return -ENOENT;         /* "" names nothing (Linux) */
	if (!(f = initrd_open(path, flags, &err)))
		return err;
	if ((fd = fd_install(fs, f, 0, false)) < 0)
		file_put(f);
	return fd;
}

struct file *file_open_exec(const char *path, long *err)
{
	struct file *f;

	if (linux_layer_present())
		return linux_open_exec(path, err);
	if (!(f = initrd_open(path, O_RDONLY, err)))
		return NULL;
	/* As Linux's may_open with MAY_EXEC: root needs one x bit too. */
	if (f->fop->directory || !(((const struct initrd_file *)f->private)->mode & 0111)) {
		file_put(f);
		*err = -EACCES;
		return NULL;
	}
	return f;
}

struct file *file_new_console(void)
{
	return linux_layer_present() ? linux_console_file() : console_file_new();
}

/* ---- the system calls: the calling task's fd table ---- */

SYSCALL(SYS_open, open)
{
	long err;
	char *path = getname(arg[0], &err);

	if (!path)
		return err;
	err = do_open(current->files, path, (int)arg[1], arg[2]);
	kfree(path);
	return err;
}

SYSCALL(SYS_close, close)
{
	return do_close(current->files, (int)arg[0]);
}
