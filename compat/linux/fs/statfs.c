/* compat/linux/fs/statfs.c - statfs 99, fstatfs 100, statfs64 268 and
 * fstatfs64 269: what file system a path is on (busybox's df, glibc's
 * statvfs).
 *
 * Every Spindle file system answers as Linux's in-memory ones do
 * (simple_statfs): its magic number, 4096-byte blocks, names up to 255
 * bytes, and 0 blocks and 0 inodes - ramfs has no size to report; it is
 * bounded by free memory (/proc/meminfo says how much). */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

/* Linux's magic numbers (include/uapi/linux/magic.h). */
#define RAMFS_MAGIC      0x858458f6u
#define PROC_SUPER_MAGIC 0x9fa0u
#define PIPEFS_MAGIC     0x50495045u
#define TMPFS_MAGIC      0x01021994u    /* devtmpfs says it too */
#define ST_VALID         0x0020u        /* f_flags is filled in */
#define NAME_MAX         255

/* i386's struct statfs64: packed to 4 bytes, 84 in all. */
struct statfs64 {
	uint32_t f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
} __attribute__((packed, aligned(4)));
_Static_assert(sizeof(struct statfs64) == 84, "i386 struct statfs64");

/* And the old struct statfs: every count in a long. */
struct statfs32 {
	uint32_t f_type, f_bsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int32_t f_fsid[2];
	uint32_t f_namelen, f_frsize, f_flags, f_spare[4];
};
_Static_assert(sizeof(struct statfs32) == 64, "i386 struct statfs");

static uint32_t magic_of(const struct inode *i)
{
	switch (i->dev) {
	case DEV_PROC: return PROC_SUPER_MAGIC;
	case DEV_PIPEFS: return PIPEFS_MAGIC;
	case DEV_DEVTMP: return TMPFS_MAGIC;
	default: return RAMFS_MAGIC;
	}
}

static void fill_statfs64(const struct inode *i, struct statfs64 *s)
{
	memset(s, 0, sizeof(*s));
	s->f_type = magic_of(i);
	s->f_bsize = PAGE_SIZE;
	s->f_frsize = PAGE_SIZE;
	s->f_namelen = NAME_MAX;
	s->f_flags = ST_VALID;
}

/* Writes i's statfs (the old layout unless is64) at ubuf. */
static long put_statfs(const struct inode *i, uint32_t ubuf, bool is64)
{
	struct statfs64 s;
	struct statfs32 o;

	fill_statfs64(i, &s);
	if (is64)
		return copy_to_user(ubuf, &s, sizeof(s)) ? -EFAULT : 0;
	memset(&o, 0, sizeof(o));
	o.f_type = s.f_type;
	o.f_bsize = s.f_bsize;
	o.f_frsize = s.f_frsize;
	o.f_namelen = s.f_namelen;
	o.f_flags = s.f_flags;
	return copy_to_user(ubuf, &o, sizeof(o)) ? -EFAULT : 0;
}

static long statfs_path(uint32_t upath, uint32_t ubuf, bool is64)
{
	struct inode *i;
	long err = user_path_at(AT_FDCWD, upath, LOOKUP_FOLLOW, &i);

	if (err < 0)
		return err;
	err = put_statfs(i, ubuf, is64);
	inode_put(i);
	return err;
}

static long statfs_fd(int fd, uint32_t ubuf, bool is64)
{
	struct file *f = fd_get(current->files, fd);
	long err;

	if (!f)
		return -EBADF;
	err = put_statfs(f->inode, ubuf, is64);
	file_put(f);
	return err;
}

LINUX_SYSCALL(SYS_statfs, statfs)
{
	return statfs_path(arg[0], arg[1], false);
}

LINUX_SYSCALL(SYS_fstatfs, fstatfs)
{
	return statfs_fd((int)arg[0], arg[1], false);
}

/* The 64-bit calls take the struct's size, which must be i386's. */
LINUX_SYSCALL(SYS_statfs64, statfs64)
{
	return arg[1] == sizeof(struct statfs64) ? statfs_path(arg[0], arg[2], true) : -EINVAL;
}

LINUX_SYSCALL(SYS_fstatfs64, fstatfs64)
{
	return arg[1] == sizeof(struct statfs64) ? statfs_fd((int)arg[0], arg[2], true) : -EINVAL;
}
