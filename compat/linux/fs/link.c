/* compat/linux/fs/link.c - hard links and nodes: link 9, linkat 303, mknod 14
 * and mknodat 297 (abi.md section 9), with Linux's errors in Linux's
 * order (fs/namei.c do_linkat, do_mknodat).
 *
 * link gives an existing inode a second name in the same file system
 * (-EXDEV across two: a name is an entry of one file system's directory);
 * never a directory (-EPERM: a second name would make the tree a graph,
 * and ".." ambiguous). Unlinking one name leaves the others, and the data
 * goes with the last name and the last open file (ramfs.c).
 *
 * mknod makes a regular file (type 0 or S_IFREG), a FIFO (a pipe opened
 * by name, pipe.c) or a socket node. A character or block device is
 * -EPERM. Linux lets root (CAP_MKNOD) make one, and every Spindle
 * process is root, but a device node is only a (major, minor) number
 * that a driver registered with Linux answers to, and Spindle has no
 * such table: its few devices (/dev/console ...) are inodes of their own
 * (dev.c), not numbers. A node no driver answers would open as -ENXIO on
 * Linux; Spindle refuses to make it at all, and says so here. */
#include "compat/linux/fs/vfs.h"
#include "kernel/syscall.h"
#include "kernel/task.h"

#define MKNOD_TYPE_DEFAULT S_IFREG      /* a type of 0 */

/* Linux's filename_create, the first step of both calls: a new name
 * that exists already is -EEXIST, and one that ends in '/' (which only a
 * directory may) and does not is -ENOENT. Then 0: go on. */
static long new_name_check(struct parent *p)
{
	long err;
	struct inode *i;

	if (p->dots)
		return -EEXIST;
	i = p->dir->iop->lookup ? p->dir->iop->lookup(p->dir, p->name, p->len, &err) : NULL;
	if (i) {
		inode_put(i);
		return -EEXIST;
	}
	return p->slash ? -ENOENT : 0;
}

static long do_linkat(int odfd, uint32_t uold, int ndfd, uint32_t unew, unsigned flags)
{
	struct inode *old;
	struct parent n;
	unsigned how = 0;
	long err;

	if (flags & ~(unsigned)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	/* Linux does not follow a symbolic link at old unless asked: the
	 * new name is for the link itself. AT_EMPTY_PATH (CAP_DAC_READ_SEARCH,
	 * which root has) links what olddirfd is open on. */
	if (flags & AT_SYMLINK_FOLLOW)
		how |= LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		how |= LOOKUP_EMPTY;
	if ((err = user_path_at(odfd, uold, how, &old)) < 0)
		return err;
	if ((err = get_parent(ndfd, unew, &n)) < 0) {
		inode_put(old);
		return err == -EBUSY ? -EEXIST : err;   /* link(f, "/") */
	}
	err = new_name_check(&n);
	if (err == 0 && n.dir->dev != old->dev)
		err = -EXDEV;
	else if (err == 0 && (!n.dir->iop->link || S_ISDIR(old->mode)))
		err = -EPERM;
	else if (err == 0)
		err = n.dir->iop->link(n.dir, n.name, n.len, old);
	put_parent(&n);
	inode_put(old);
	return err;
}

LINUX_SYSCALL(SYS_link, link)
{
	return do_linkat(AT_FDCWD, arg[0], AT_FDCWD, arg[1], 0);
}

LINUX_SYSCALL(SYS_linkat, linkat)
{
	return do_linkat((int)arg[0], arg[1], (int)arg[2], arg[3], arg[4]);
}

static long do_mknodat(int dirfd, uint32_t upath, uint32_t mode, uint32_t dev)
{
	struct parent p;
	uint32_t type = mode & S_IFMT;
	unsigned umask = current->lx.fs ? current->lx.fs->umask : 022;
	long err;

	(void)dev;                      /* only devices have one */
	/* Linux's may_mknod, before the path is looked at. */
	if (type == S_IFDIR)
		return -EPERM;          /* mkdir's job */
	if (type != 0 && type != S_IFREG && type != S_IFIFO && type != S_IFSOCK &&
	    type != S_IFCHR && type != S_IFBLK)
		return -EINVAL;
	if ((err = get_parent(dirfd, upath, &p)) < 0)
		return err == -EBUSY ? -EEXIST : err;   /* mknod("/") */
	err = new_name_check(&p);
	if (err == 0 && (type == S_IFCHR || type == S_IFBLK))
		err = -EPERM;           /* a device: the comment at the top */
	else if (err == 0)
		err = make_node(&p, (type ? type : MKNOD_TYPE_DEFAULT) | (mode & 07777 & ~umask),
				NULL);
	put_parent(&p);
	return err;
}

LINUX_SYSCALL(SYS_mknod, mknod)
{
	return do_mknodat(AT_FDCWD, arg[0], arg[1], arg[2]);
}

LINUX_SYSCALL(SYS_mknodat, mknodat)
{
	return do_mknodat((int)arg[0], arg[1], arg[2], arg[3]);
}
