/* compat/linux/fs/dirops.c - the calls that change or read the name space:
 * mkdir, rmdir, unlink, rename, symlink, readlink, chdir, fchdir,
 * getcwd, access, umask, chmod, and their *at forms (abi.md section 9).
 *
 * Each finds the directory holding the last name (path_parent) and asks
 * that directory's file system to do the change; the rules on what may
 * replace what are the file system's (ramfs.c). Names "." and ".." as
 * the last component are refused here with Linux's errors. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

long get_parent(int dirfd, uint32_t upath, struct parent *p)
{
	struct inode *start;
	long err;

	p->dir = NULL;
	if (!(p->buf = getname(upath, &err)))
		return err;
	if (!*p->buf)
		err = -ENOENT;
	else if ((err = lookup_start_for(dirfd, p->buf, &start)) == 0) {
		if (*p->buf != '/' && !S_ISDIR(start->mode))
			err = -ENOTDIR;
		else
			err = path_parent(start, p->buf, &p->dir, &p->name, &p->len, &p->dots,
					  &p->slash);
		inode_put(start);
	}
	if (err < 0) {
		kfree(p->buf);
		p->buf = NULL;
	}
	return err;
}

void put_parent(struct parent *p)
{
	if (p->dir)
		inode_put(p->dir);
	kfree(p->buf);
}

static unsigned umask_of_current(void)
{
	return current->lx.fs ? current->lx.fs->umask : 022;
}

long make_node(struct parent *p, uint32_t mode, const char *target)
{
	struct inode *i;
	long err;

	if (p->dots)
		return -EEXIST;
	if (!p->dir->iop->create) {
		/* Another file system's directory (/proc): an existing
		 * name is still -EEXIST. */
		if (p->dir->iop->lookup && (i = p->dir->iop->lookup(p->dir, p->name, p->len, &err))) {
			inode_put(i);
			return -EEXIST;
		}
		return -EACCES;
	}
	if ((err = p->dir->iop->create(p->dir, p->name, p->len, mode, target, &i)) < 0)
		return err;
	inode_put(i);
	return 0;
}

static long do_mkdirat(int dirfd, uint32_t upath, unsigned mode)
{
	struct parent p;
	long err = get_parent(dirfd, upath, &p);

	if (err < 0)
		return err == -EBUSY ? -EEXIST : err;   /* mkdir("/") */
	err = make_node(&p, S_IFDIR | (mode & 07777 & ~umask_of_current()), NULL);
	put_parent(&p);
	return err;
}

LINUX_SYSCALL(SYS_mkdir, mkdir)
{
	return do_mkdirat(AT_FDCWD, arg[0], arg[1]);
}

LINUX_SYSCALL(SYS_mkdirat, mkdirat)
{
	return do_mkdirat((int)arg[0], arg[1], arg[2]);
}

static long do_unlinkat(int dirfd, uint32_t upath, bool rmdir)
{
	struct parent p;
	long err = get_parent(dirfd, upath, &p);

	if (err < 0)
		return err == -EBUSY && !rmdir ? -EISDIR : err;
	if (p.dots)
		/* Linux: rmdir(".") -EINVAL, rmdir("..") -ENOTEMPTY. */
		err = !rmdir ? -EISDIR : p.len == 1 ? -EINVAL : -ENOTEMPTY;
	else if (!p.dir->iop->remove)
		err = -EACCES;
	else {
		if (p.slash && !rmdir) {
			/* "file/": the name must be a directory, which
			 * unlink refuses anyway. */
			struct inode *i = p.dir->iop->lookup(p.dir, p.name, p.len, &err);
			if (i) {
				err = S_ISDIR(i->mode) ? -EISDIR : -ENOTDIR;
				inode_put(i);
			}
		} else {
			err = p.dir->iop->remove(p.dir, p.name, p.len, rmdir);
		}
	}
	put_parent(&p);
	return err;
}

LINUX_SYSCALL(SYS_unlink, unlink)
{
	return do_unlinkat(AT_FDCWD, arg[0], false);
}

LINUX_SYSCALL(SYS_rmdir, rmdir)
{
	return do_unlinkat(AT_FDCWD, arg[0], true);
}

LINUX_SYSCALL(SYS_unlinkat, unlinkat)
{
	if (arg[2] & ~(uint32_t)AT_REMOVEDIR)
		return -EINVAL;
	return do_unlinkat((int)arg[0], arg[1], arg[2] & AT_REMOVEDIR);
}

static long do_renameat(int odfd, uint32_t uold, int ndfd, uint32_t unew)
{
	struct parent o, n;
	struct inode *src;
	long err;

	if ((err = get_parent(odfd, uold, &o)) < 0)
		return err;
	if ((err = get_parent(ndfd, unew, &n)) < 0) {
		put_parent(&o);
		return err;
	}
	if (o.dots || n.dots)
		err = -EBUSY;
	else if (o.dir->dev != n.dir->dev)
		err = -EXDEV;
	else if (!o.dir->iop->rename)
		err = -EPERM;
	else if (!(src = o.dir->iop->lookup(o.dir, o.name, o.len, &err)))
		; /* err: -ENOENT */
	else {
		/* A trailing '/' on either name says "directory". */
		err = (o.slash || n.slash) && !S_ISDIR(src->mode) ? -ENOTDIR : 0;
		inode_put(src);
		if (err == 0)
			err = o.dir->iop->rename(o.dir, o.name, o.len, n.dir, n.name, n.len);
	}
	put_parent(&o);
	put_parent(&n);
	return err;
}

LINUX_SYSCALL(SYS_rename, rename)
{
	return do_renameat(AT_FDCWD, arg[0], AT_FDCWD, arg[1]);
}

LINUX_SYSCALL(SYS_renameat, renameat)
{
	return do_renameat((int)arg[0], arg[1], (int)arg[2], arg[3]);
}

static long do_symlinkat(uint32_t utarget, int dirfd, uint32_t upath)
{
	struct parent p;
	long err;
	char *target = getname(utarget, &err);

	if (!target)
		return err;
	if (!*target)
		err = -ENOENT;
	else if ((err = get_parent(dirfd, upath, &p)) == 0) {
		err = make_node(&p, S_IFLNK | 0777, target);
		put_parent(&p);
	} else if (err == -EBUSY) {
		err = -EEXIST;
	}
	kfree(target);
	return err;
}

LINUX_SYSCALL(SYS_symlink, symlink)
{
	return do_symlinkat(arg[0], AT_FDCWD, arg[1]);
}

LINUX_SYSCALL(SYS_symlinkat, symlinkat)
{
	return do_symlinkat(arg[0], (int)arg[1], arg[2]);
}

static long do_readlinkat(int dirfd, uint32_t upath, uint32_t ubuf, int size)
{
	struct inode *i;
	char *buf;
	long err, n;

	if (size <= 0)
		return -EINVAL;
	if ((err = user_path_at(dirfd, upath, LOOKUP_EMPTY, &i)) < 0)
		return err;
	if (!S_ISLNK(i->mode) || !i->iop->readlink) {
		inode_put(i);
		return -EINVAL;
	}
	if (!(buf = kmalloc(PATH_MAX))) {
		inode_put(i);
		return -ENOMEM;
	}
	n = i->iop->readlink(i, buf, PATH_MAX);
	inode_put(i);
	if (n > size)
		n = size;               /* truncated, no NUL: as readlink(2) */
	if (n >= 0 && copy_to_user(ubuf, buf, (size_t)n))
		n = -EFAULT;
	kfree(buf);
	return n;
}

LINUX_SYSCALL(SYS_readlink, readlink)
{
	return do_readlinkat(AT_FDCWD, arg[0], arg[1], (int)arg[2]);
}

LINUX_SYSCALL(SYS_readlinkat, readlinkat)
{
	return do_readlinkat((int)arg[0], arg[1], arg[2], (int)arg[3]);
}

/* ---- the working directory ---- */

static long set_cwd(struct inode *dir)
{
	struct fs_struct *fs = current->lx.fs;
	struct inode *old;

	if (!S_ISDIR(dir->mode)) {
		inode_put(dir);
		return -ENOTDIR;
	}
	spin_lock(&fs->lock);
	old = fs->cwd;
	fs->cwd = dir;                  /* takes over the caller's reference */
	spin_unlock(&fs->lock);
	inode_put(old);
	return 0;
}

LINUX_SYSCALL(SYS_chdir, chdir)
{
	struct inode *dir;
	long err = user_path_at(AT_FDCWD, arg[0], LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &dir);

	return err < 0 ? err : set_cwd(dir);
}

LINUX_SYSCALL(SYS_fchdir, fchdir)
{
	struct file *f = fd_get(current->files, (int)arg[0]);
	struct inode *dir;

	if (!f)
		return -EBADF;
	dir = f->inode;
	inode_get(dir);
	file_put(f);
	return set_cwd(dir);
}

/* getcwd(buf, size): the length with its NUL, as Linux's system call
 * returns (glibc's wrapper turns it into buf). */
LINUX_SYSCALL(SYS_getcwd, getcwd)
{
	struct inode *cwd = fs_cwd(current->lx.fs);
	char *buf = kmalloc(PATH_MAX);
	long n;

	if (!buf) {
		inode_put(cwd);
		return -ENOMEM;
	}
	n = dir_path(cwd, buf, PATH_MAX);
	inode_put(cwd);
	if (n >= 0 && (uint32_t)n + 1 > arg[1])
		n = -ERANGE;
	else if (n >= 0 && copy_to_user(arg[0], buf, (size_t)n + 1))
		n = -EFAULT;
	else if (n >= 0)
		n++;
	kfree(buf);
	return n;
}

/* ---- access, umask, chmod ---- */

/* One user, root: reading and writing are always allowed, executing
 * needs an x bit somewhere (Linux's rule for CAP_DAC_OVERRIDE) or a
 * directory. */
static long do_faccessat(int dirfd, uint32_t upath, unsigned mode)
{
	struct inode *i;
	long err;

	if (mode & ~7u)
		return -EINVAL;
	if ((err = user_path_at(dirfd, upath, LOOKUP_FOLLOW, &i)) < 0)
		return err;
	if ((mode & X_OK) && !S_ISDIR(i->mode) && !(i->mode & 0111))
		err = -EACCES;
	inode_put(i);
	return err;
}

LINUX_SYSCALL(SYS_access, access)
{
	return do_faccessat(AT_FDCWD, arg[0], arg[1]);
}

LINUX_SYSCALL(SYS_faccessat, faccessat)
{
	return do_faccessat((int)arg[0], arg[1], arg[2]);
}

LINUX_SYSCALL(SYS_umask, umask)
{
	struct fs_struct *fs = current->lx.fs;
	unsigned old;

	spin_lock(&fs->lock);
	old = fs->umask;
	fs->umask = arg[0] & 0777;
	spin_unlock(&fs->lock);
	return old;
}

static long chmod_inode(struct inode *i, unsigned mode)
{
	if (i->dev != DEV_RAMFS)
		return -EPERM;          /* /proc's and devices' modes are fixed */
	mutex_lock(&i->mutex);
	i->mode = (i->mode & S_IFMT) | (mode & 07777);
	i->ctime = fs_now();
	mutex_unlock(&i->mutex);
	return 0;
}

static long do_fchmodat(int dirfd, uint32_t upath, unsigned mode)
{
	struct inode *i;
	long err = user_path_at(dirfd, upath, LOOKUP_FOLLOW, &i);

	if (err < 0)
		return err;
	err = chmod_inode(i, mode);
	inode_put(i);
	return err;
}

LINUX_SYSCALL(SYS_chmod, chmod)
{
	return do_fchmodat(AT_FDCWD, arg[0], arg[1]);
}

LINUX_SYSCALL(SYS_fchmodat, fchmodat)
{
	return do_fchmodat((int)arg[0], arg[1], arg[2]);
}

LINUX_SYSCALL(SYS_fchmod, fchmod)
{
	struct file *f = fd_get(current->files, (int)arg[0]);
	long err;

	if (!f)
		return -EBADF;
	err = chmod_inode(f->inode, arg[1]);
	file_put(f);
	return err;
}
