/* compat/linux/fs/readdir.c - getdents64 (abi.md section 9), and what an open
 * directory is: a file whose offset is a place in the directory (the
 * file system's readdir position), read only through getdents64
 * (read(2) is -EISDIR). */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define DIRENT_HEADER 19        /* offsetof(struct linux_dirent64, d_name) */
_Static_assert(__builtin_offsetof(struct linux_dirent64, d_name) == DIRENT_HEADER,
	       "linux_dirent64's name starts at 19");

const struct file_ops dir_fops = {
	.seekable = true,
	.directory = true,       /* read and write: -EISDIR (file_rw) */
};

struct getdents_ctx {
	uint32_t ubuf;
	size_t size, used;
	long err;
};

/* One record, its length rounded up to 8 bytes (Linux's filldir64). */
static bool filldir(void *c, const char *name, size_t len, uint32_t ino, unsigned type,
		    uint64_t next)
{
	struct getdents_ctx *ctx = c;
	char rec[DIRENT_HEADER + NAME_MAX + 1 + 8];
	struct linux_dirent64 *d = (struct linux_dirent64 *)rec;
	size_t reclen = (DIRENT_HEADER + len + 1 + 7) & ~(size_t)7;

	if (reclen > ctx->size - ctx->used) {
		if (ctx->used == 0)
			ctx->err = -EINVAL;     /* not even one fits */
		return false;
	}
	memset(rec, 0, reclen);
	d->d_ino = ino;
	d->d_off = (long long)next;
	d->d_reclen = (unsigned short)reclen;
	d->d_type = (unsigned char)type;
	memcpy(d->d_name, name, len);
	if (copy_to_user(ctx->ubuf + ctx->used, rec, reclen)) {
		ctx->err = -EFAULT;
		return false;
	}
	ctx->used += reclen;
	return true;
}

/* getdents64(fd, dirp, count): bytes of records, 0 at the end. */
LINUX_SYSCALL(SYS_getdents64, getdents64)
{
	struct getdents_ctx ctx = { arg[1], arg[2], 0, 0 };
	struct file *f = fd_get(current->files, (int)arg[0]);
	struct inode *dir;
	uint64_t pos;
	long r;

	if (!f)
		return -EBADF;
	dir = f->inode;
	if (!S_ISDIR(dir->mode) || !dir->iop->readdir)
		r = -ENOTDIR;
	else if (!user_range_ok(ctx.ubuf, ctx.size))
		r = -EFAULT;
	else if ((r = mutex_lock_killable(&f->pos_lock)) == 0) {
		pos = f->pos;
		r = dir->iop->readdir(dir, &pos, filldir, &ctx);
		f->pos = pos;
		mutex_unlock(&f->pos_lock);
		if (r == 0)
			r = ctx.used ? (long)ctx.used : ctx.err;
	}
	file_put(f);
	return r;
}
