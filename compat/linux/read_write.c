/* compat/linux/read_write.c - lseek, _llseek, readv, pread64, pwrite64
 * and sendfile (abi.md section 9), on the core's read and write path
 * (kernel/read_write.c file_rw, do_rw, do_rwv). */
#include "kernel/file.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/uaccess.h"
#include "compat/linux/fs/vfs.h"

#define MAX_LFS_FILESIZE (1ull << 44)   /* Linux i386's with 4 KiB pages */
#define SENDFILE_CHUNK 512

/* ---- lseek ---- */

static long long do_lseek(int fd, long long off, unsigned whence)
{
	struct file *f = fd_get(current->files, fd);
	long long base, r;

	if (!f)
		return -EBADF;
	if (!f->fop->seekable) {
		file_put(f);
		return -ESPIPE;
	}
	if ((r = mutex_lock_killable(&f->pos_lock)) < 0) {
		file_put(f);
		return r;
	}
	switch (whence) {
	case SEEK_SET: base = 0; break;
	case SEEK_CUR: base = (long long)f->pos; break;
	case SEEK_END:
		/* A directory's offset is a place in its list: no end. */
		base = S_ISDIR(f->inode->mode) ? -1 : (long long)f->inode->size;
		break;
	default: base = -1;
	}
	r = -EINVAL;
	if (base >= 0 && !(off < 0 && -off > base) && (uint64_t)(base + off) <= MAX_LFS_FILESIZE) {
		f->pos = (uint64_t)(base + off);
		r = base + off;
	}
	mutex_unlock(&f->pos_lock);
	file_put(f);
	return r;
}

LINUX_SYSCALL(SYS_lseek, lseek)
{
	long long r;

	/* A position past 2 GiB does not fit lseek's off_t: -EOVERFLOW
	 * before it is set (_llseek reaches it). */
	if ((unsigned)arg[2] == SEEK_CUR || (unsigned)arg[2] == SEEK_END) {
		struct file *f = fd_get(current->files, (int)arg[0]);
		long long now;
		if (!f)
			return -EBADF;
		now = (unsigned)arg[2] == SEEK_CUR ? (long long)f->pos : (long long)f->inode->size;
		file_put(f);
		if (now + (int32_t)arg[1] > 0x7fffffff)
			return -EOVERFLOW;
	}
	r = do_lseek((int)arg[0], (int32_t)arg[1], arg[2]);
	return r > 0x7fffffff ? -EOVERFLOW : (long)r;
}

/* _llseek(fd, offset_high, offset_low, loff_t *result, whence) */
LINUX_SYSCALL(SYS__llseek, _llseek)
{
	long long off = (long long)(((uint64_t)arg[1] << 32) | arg[2]), r;

	if (!user_range_ok(arg[3], 8))
		return -EFAULT;
	r = do_lseek((int)arg[0], off, arg[4]);
	if (r < 0)
		return (long)r;
	return copy_to_user(arg[3], &r, sizeof(r)) ? -EFAULT : 0;
}

/* ---- pread64, pwrite64: (fd, buf, count, offset low, offset high) ---- */

static long do_prw(const uint32_t *arg, bool write)
{
	long long off = (long long)(((uint64_t)arg[4] << 32) | arg[3]);
	uint64_t pos = (uint64_t)off;

	if (off < 0)
		return -EINVAL;
	return do_rw(current->files, (int)arg[0], write, arg[1], arg[2], &pos);
}

LINUX_SYSCALL(SYS_pread64, pread64)
{
	return do_prw(arg, false);
}

LINUX_SYSCALL(SYS_pwrite64, pwrite64)
{
	return do_prw(arg, true);
}

/* ---- sendfile: file to file through the kernel ---- */

static long do_sendfile(int out_fd, int in_fd, uint32_t uoff, bool off64, size_t count)
{
	struct file *in = fd_get(current->files, in_fd), *out = fd_get(current->files, out_fd);
	char buf[SENDFILE_CHUNK];
	uint64_t pos = 0;
	long done = 0, r = 0;

	if (!in || !out || !(in->mode & FMODE_READ) || !(out->mode & FMODE_WRITE))
		r = -EBADF;
	else if (out->flags & O_APPEND)
		r = -EINVAL;            /* Linux refuses an O_APPEND output */
	else if (uoff) {
		uint32_t w[2] = { 0, 0 };
		if (copy_from_user(w, uoff, off64 ? 8 : 4))
			r = -EFAULT;
		pos = ((uint64_t)w[1] << 32) | w[0];
		if (r == 0 && (long long)pos < 0)
			r = -EINVAL;
	}
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	while (r == 0 && (size_t)done < count) {
		struct iobuf kb = { (uintptr_t)buf, false };
		size_t k = count - (size_t)done < sizeof(buf) ? count - (size_t)done : sizeof(buf);
		long got = file_rw(in, false, kb, k, uoff ? &pos : NULL), put;

		if (got <= 0) {
			r = got;
			break;
		}
		kb.addr = (uintptr_t)buf;
		put = file_rw(out, true, kb, (size_t)got, NULL);
		if (put < 0) {
			r = put;
			break;
		}
		done += put;
		if (put < got)
			break;
	}
	if (uoff && (done > 0 || r == 0)) {
		uint32_t w[2] = { (uint32_t)pos, (uint32_t)(pos >> 32) };
		if (copy_to_user(uoff, w, off64 ? 8 : 4) && done == 0)
			r = -EFAULT;
	}
	if (in)
		file_put(in);
	if (out)
		file_put(out);
	return done > 0 ? done : r;
}

LINUX_SYSCALL(SYS_sendfile, sendfile)
{
	return do_sendfile((int)arg[0], (int)arg[1], arg[2], false, arg[3]);
}

LINUX_SYSCALL(SYS_sendfile64, sendfile64)
{
	return do_sendfile((int)arg[0], (int)arg[1], arg[2], true, arg[3]);
}

LINUX_SYSCALL(SYS_readv, readv)
{
	return do_rwv(current->files, (int)arg[0], false, arg[1], (int)arg[2]);
}
