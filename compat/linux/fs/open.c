/* compat/linux/fs/open.c - open, openat, creat, truncate, ftruncate, fsync and
 * ioctl (abi.md section 9), named after Linux's fs/open.c.
 *
 * open's steps, in Linux's order: a free fd must exist (-EMFILE first),
 * then the path is walked. With O_CREAT the last name is looked up in
 * its directory and created there when missing (mode & ~umask); O_EXCL
 * insists on creating. The access mode is then checked against what the
 * inode is: a directory opens only for reading (-EISDIR), O_DIRECTORY
 * wants one (-ENOTDIR), O_NOFOLLOW refuses a symbolic link (-ELOOP).
 * O_TRUNC empties a regular file. The file system's own open may still
 * refuse (a /proc view opened for writing). */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "lib/string.h"


/* open's first check, as Linux reserves the fd before the lookup. */
static long fd_check_free(struct files *fs)
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

static unsigned current_umask(void)
{
	return current->lx.fs ? current->lx.fs->umask : 022;
}

/* The O_CREAT path: the last name in its directory, made if missing. */
static long open_create(struct inode *start, const char *path, int flags, unsigned mode,
			struct inode **out)
{
	struct inode *dir, *i = NULL;
	const char *name;
	size_t len;
	bool dots, slash;
	long err;

	if ((err = path_parent(start, path, &dir, &name, &len, &dots, &slash)) < 0)
		return err == -EBUSY ? -EISDIR : err;   /* "/" */
	if (dots) {
		inode_put(dir);
		return -EISDIR;
	}
	for (int tries = 0; tries < 8; tries++) {
		i = dir->iop->lookup ? dir->iop->lookup(dir, name, len, &err) : NULL;
		if (i) {
			if (flags & O_EXCL) {
				err = -EEXIST;
				break;
			}
			if (S_ISLNK(i->mode) && !(flags & O_NOFOLLOW)) {
				inode_put(i);
				i = NULL;
				err = path_walk(start, path, LOOKUP_FOLLOW, &i);
			}
			break;
		}
		if (slash) {
			err = -EISDIR;
			break;
		}
		if (!dir->iop->create) {
			err = -EACCES;
			break;
		}
		err = dir->iop->create(dir, name, len, S_IFREG | (mode & 07777 & ~current_umask()),
				       NULL, &i);
		if (err != -EEXIST)     /* someone made it first: look again */
			break;
	}
	inode_put(dir);
	if (err < 0) {
		if (i)
			inode_put(i);
		return err;
	}
	*out = i;
	return 0;
}

static long open_inode(struct inode *start, const char *path, int flags, unsigned mode,
		       struct file **out)
{
	struct inode *i;
	struct file *f = NULL;
	unsigned lf = (flags & O_NOFOLLOW) ? 0 : LOOKUP_FOLLOW;
	long err;

	if (flags & O_DIRECTORY)
		lf |= LOOKUP_DIRECTORY;
	if (flags & O_CREAT)
		err = open_create(start, path, flags, mode, &i);
	else
		err = path_walk(start, path, lf, &i);
	if (err < 0)
		return err;
	if (S_ISLNK(i->mode))
		err = -ELOOP;           /* O_NOFOLLOW on a link */
	else if (S_ISDIR(i->mode) && ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT)))
		err = -EISDIR;
	else if ((flags & O_DIRECTORY) && !S_ISDIR(i->mode))
		err = -ENOTDIR;
	else if ((flags & O_TRUNC) && S_ISREG(i->mode) && i->iop->truncate) {
		if ((err = mutex_lock_killable(&i->mutex)) == 0) {
			err = i->iop->truncate(i, 0);
			mutex_unlock(&i->mutex);
		}
	}
	if (err == 0)
		f = file_open_inode(i, flags, &err);    /* NULL: err set */
	inode_put(i);
	if (err < 0)
		return err;
	*out = f;
	return 0;
}

long linux_openat(struct files *fs, int dirfd, const char *path, int flags, unsigned mode)
{
	struct inode *start;
	struct file *f;
	long err, fd;

	if (!fs || (err = fd_check_free(fs)) < 0)
		return fs ? err : -EMFILE;
	if (!*path)
		return -ENOENT;
	if ((err = lookup_start_for(dirfd, path, &start)) < 0)
		return err;
	if (*path != '/' && !S_ISDIR(start->mode))
		err = -ENOTDIR;
	else
		err = open_inode(start, path, flags, mode, &f);
	inode_put(start);
	if (err < 0)
		return err;
	if ((fd = fd_install(fs, f, 0, flags & O_CLOEXEC)) < 0)
		file_put(f);
	return fd;
}

static long sys_openat_common(int dirfd, uint32_t upath, int flags, unsigned mode)
{
	long err;
	char *path = getname(upath, &err);

	if (!path)
		return err;
	err = linux_openat(current->files, dirfd, path, flags, mode);
	kfree(path);
	return err;
}

LINUX_SYSCALL(SYS_openat, openat)
{
	return sys_openat_common((int)arg[0], arg[1], (int)arg[2], arg[3]);
}

LINUX_SYSCALL(SYS_creat, creat)
{
	return sys_openat_common(AT_FDCWD, arg[0], O_CREAT | O_WRONLY | O_TRUNC, arg[1]);
}

/* ---- truncate ---- */

static long truncate_inode(struct inode *i, long long len)
{
	long err;

	if (len < 0)
		return -EINVAL;
	if (S_ISDIR(i->mode))
		return -EISDIR;
	if (!S_ISREG(i->mode) || !i->iop->truncate)
		return -EINVAL;
	if ((err = mutex_lock_killable(&i->mutex)) < 0)
		return err;
	err = i->iop->truncate(i, (uint64_t)len);
	mutex_unlock(&i->mutex);
	return err;
}

static long do_truncate(uint32_t upath, long long len)
{
	struct inode *i;
	long err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &i);

	if (err < 0)
		return err;
	err = truncate_inode(i, len);
	inode_put(i);
	return err;
}

static long do_ftruncate(int fd, long long len)
{
	struct file *f = fd_get(current->files, fd);
	long err;

	if (!f)
		return -EBADF;
	/* Linux: a file not open for writing is -EINVAL here, not -EBADF. */
	err = (f->mode & FMODE_WRITE) ? truncate_inode(f->inode, len) : -EINVAL;
	file_put(f);
	return err;
}

static long long arg64(const uint32_t *arg, int lo)
{
	return (long long)(((uint64_t)arg[lo + 1] << 32) | arg[lo]);
}

LINUX_SYSCALL(SYS_truncate, truncate)
{
	return do_truncate(arg[0], (int32_t)arg[1]);
}

LINUX_SYSCALL(SYS_truncate64, truncate64)
{
	return do_truncate(arg[0], arg64(arg, 1));
}

LINUX_SYSCALL(SYS_ftruncate, ftruncate)
{
	return do_ftruncate((int)arg[0], (int32_t)arg[1]);
}

LINUX_SYSCALL(SYS_ftruncate64, ftruncate64)
{
	return do_ftruncate((int)arg[0], arg64(arg, 1));
}

/* ---- fsync, ioctl ---- */

/* Nothing is ever written back (ramfs is the only place a file lives),
 * so a file's data is always as durable as it gets: 0 (Linux's
 * noop_fsync). Pipes and the console have no fsync: -EINVAL, as there. */
static long do_fsync(int fd)
{
	struct file *f = fd_get(current->files, fd);
	long err;

	if (!f)
		return -EBADF;
	err = f->fop && f->fop->seekable ? 0 : -EINVAL;
	file_put(f);
	return err;
}

LINUX_SYSCALL(SYS_fsync, fsync)
{
	return do_fsync((int)arg[0]);
}

LINUX_SYSCALL(SYS_fdatasync, fdatasync)
{
	return do_fsync((int)arg[0]);
}

/* sync() and syncfs(fd): the same argument, for every file at once:
 * nothing to write back (Linux's answer for ramfs). syncfs checks its
 * fd (-EBADF); sync cannot fail. */
LINUX_SYSCALL(SYS_sync, sync)
{
	(void)arg;
	return 0;
}

LINUX_SYSCALL(SYS_syncfs, syncfs)
{
	struct file *f = fd_get(current->files, (int)arg[0]);

	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

LINUX_SYSCALL(SYS_ioctl, ioctl)
{
	struct file *f = fd_get(current->files, (int)arg[0]);
	long err;

	if (!f)
		return -EBADF;
	err = f->fop && f->fop->ioctl ? f->fop->ioctl(f, arg[1], arg[2]) : -ENOTTY;
	file_put(f);
	return err;
}
