/* compat/linux/fs/stat.c - stat64, lstat64, fstat64, fstatat64 and statx
 * (abi.md section 9): what an inode is, in i386's struct stat64 or the
 * architecture-independent struct statx (lib/abi.h). */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define NSEC 1000000000ull

/* 512-byte blocks a file holds: the RAM file system's pages. */
static uint64_t blocks_of(struct inode *i)
{
	uint64_t pages = 0;

	if (i->dev != DEV_RAMFS || !S_ISREG(i->mode))
		return 0;
	mutex_lock(&i->mutex);
	for (uint32_t p = 0; p < i->u.reg.npages; p++)
		if (i->u.reg.pages[p])
			pages++;
	mutex_unlock(&i->mutex);
	return pages * (PAGE_SIZE / 512);
}

static void fill_stat64(struct inode *i, struct stat64 *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = i->dev;            /* major 0, minor dev */
	st->__st_ino = i->ino;
	st->st_ino = i->ino;
	st->st_mode = i->mode;
	st->st_nlink = i->nlink;
	st->st_rdev = i->rdev;
	st->st_size = (long long)i->size;
	st->st_blksize = PAGE_SIZE;
	st->st_blocks = blocks_of(i);
	st->st_atime_sec = (unsigned long)(i->atime / NSEC);
	st->st_atime_nsec = (unsigned long)(i->atime % NSEC);
	st->st_mtime_sec = (unsigned long)(i->mtime / NSEC);
	st->st_mtime_nsec = (unsigned long)(i->mtime % NSEC);
	st->st_ctime_sec = (unsigned long)(i->ctime / NSEC);
	st->st_ctime_nsec = (unsigned long)(i->ctime % NSEC);
}

static long put_stat64(struct inode *i, uint32_t ubuf)
{
	struct stat64 st;

	fill_stat64(i, &st);
	return copy_to_user(ubuf, &st, sizeof(st)) ? -EFAULT : 0;
}

static long stat_path(int dirfd, uint32_t upath, unsigned lookup, uint32_t ubuf)
{
	struct inode *i;
	long err = user_path_at(dirfd, upath, lookup, &i);

	if (err < 0)
		return err;
	err = put_stat64(i, ubuf);
	inode_put(i);
	return err;
}

LINUX_SYSCALL(SYS_stat64, stat64)
{
	return stat_path(AT_FDCWD, arg[0], LOOKUP_FOLLOW, arg[1]);
}

LINUX_SYSCALL(SYS_lstat64, lstat64)
{
	return stat_path(AT_FDCWD, arg[0], 0, arg[1]);
}

LINUX_SYSCALL(SYS_fstat64, fstat64)
{
	struct file *f = fd_get(current->files, (int)arg[0]);
	long err;

	if (!f)
		return -EBADF;
	err = put_stat64(f->inode, arg[1]);
	file_put(f);
	return err;
}

static unsigned lookup_flags(uint32_t atflags)
{
	return (atflags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
	       (atflags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
}

/* fstatat64(dirfd, path, buf, flags) */
LINUX_SYSCALL(SYS_fstatat64, fstatat64)
{
	if (arg[3] & ~(uint32_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	return stat_path((int)arg[0], arg[1], lookup_flags(arg[3]), arg[2]);
}

static struct statx_timestamp stx_time(uint64_t ns)
{
	struct statx_timestamp t = { (long long)(ns / NSEC), (unsigned)(ns % NSEC), 0 };
	return t;
}

/* statx(dirfd, path, flags, mask, buf): every basic field is always
 * filled (the mask asks for at least these; Linux may give more than
 * asked, and says so in stx_mask). No birth time. */
LINUX_SYSCALL(SYS_statx, statx)
{
	struct statx sx;
	struct inode *i;
	uint32_t flags = arg[2];
	long err;

	if (flags & ~(uint32_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
				AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE || (arg[3] & STATX__RESERVED))
		return -EINVAL;
	if ((err = user_path_at((int)arg[0], arg[1], lookup_flags(flags), &i)) < 0)
		return err;
	memset(&sx, 0, sizeof(sx));
	sx.stx_mask = STATX_BASIC_STATS;
	sx.stx_blksize = PAGE_SIZE;
	sx.stx_nlink = i->nlink;
	sx.stx_mode = (unsigned short)i->mode;
	sx.stx_ino = i->ino;
	sx.stx_size = i->size;
	sx.stx_blocks = blocks_of(i);
	sx.stx_atime = stx_time(i->atime);
	sx.stx_mtime = stx_time(i->mtime);
	sx.stx_ctime = stx_time(i->ctime);
	sx.stx_rdev_major = i->rdev >> 8;
	sx.stx_rdev_minor = i->rdev & 0xff;
	sx.stx_dev_major = 0;
	sx.stx_dev_minor = i->dev;
	inode_put(i);
	return copy_to_user(arg[4], &sx, sizeof(sx)) ? -EFAULT : 0;
}
