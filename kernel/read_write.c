/* kernel/read_write.c - read, write, readv, writev, pread64, pwrite64,
 * lseek, _llseek and sendfile (file.h; abi.md sections 3 and 9), named
 * after Linux's fs/read_write.c.
 *
 * Each call finds the open file, checks it, and hands the bytes to the
 * file's own operations (struct file_ops: a RAM file, a pipe, the
 * console, a /proc view). The offset of a seekable file is taken and
 * put back under the file's pos_lock, so two threads reading one shared
 * file get different bytes (Linux's f_pos_lock).
 *
 * Error precedence follows Linux so a program sees the same errno on
 * both: the fd (-EBADF), its access mode (-EBADF), the whole buffer's
 * range (-EFAULT, access_ok), then a count that would be a negative
 * ssize_t (clipped to MAX_RW_COUNT, rw_verify_area). A buffer that is
 * valid but partly unmapped is read or written up to the first bad page
 * and the call returns that count, as Linux does; -EFAULT only when not
 * one byte got through. */
#include "kernel/file.h"
#include "kernel/fs/vfs.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define UIO_FASTIOV  8          /* vectors that fit on the stack */
#define MAX_LFS_FILESIZE (1ull << 44)   /* Linux i386's with 4 KiB pages */
#define SENDFILE_CHUNK 512

_Static_assert(sizeof(struct user_iovec) == 8, "struct iovec is 8 bytes on i386");

long copy_to_user_partial(uint32_t udst, const void *src, size_t n)
{
	size_t done = 0;

	if (!user_range_ok(udst, n))
		return -EFAULT;
	while (done < n) {
		size_t k = PAGE_SIZE - ((udst + done) & (PAGE_SIZE - 1));
		if (k > n - done)
			k = n - done;
		if (copy_to_user(udst + done, (const char *)src + done, k))
			break;
		done += k;
	}
	return done ? (long)done : -EFAULT;
}

size_t copy_from_user_partial(void *dst, uint32_t usrc, size_t n)
{
	size_t done = 0;

	if (!user_range_ok(usrc, n))
		return 0;
	while (done < n) {
		size_t k = PAGE_SIZE - ((usrc + done) & (PAGE_SIZE - 1));
		if (k > n - done)
			k = n - done;
		if (copy_from_user((char *)dst + done, usrc + done, k))
			break;
		done += k;
	}
	return done;
}

/* ---- the common path ---- */

/* read or write n bytes of f: at *ppos if given (pread, pwrite,
 * sendfile with an offset), else at the file's own offset. */
static long file_rw(struct file *f, bool write, struct iobuf b, size_t n, uint64_t *ppos)
{
	long (*op)(struct file *, struct iobuf, size_t, uint64_t *);
	uint64_t pos;
	long r;

	if (!(f->mode & (write ? FMODE_WRITE : FMODE_READ)))
		return -EBADF;
	if (S_ISDIR(f->inode->mode))
		return -EISDIR;
	op = f->fop ? (write ? f->fop->write : f->fop->read) : NULL;
	if (!op)
		return -EINVAL;
	if (n > MAX_RW_COUNT)
		n = MAX_RW_COUNT;
	if (ppos) {
		if (!f->fop->seekable)
			return -ESPIPE;
		return op(f, b, n, ppos);
	}
	if (!f->fop->seekable) {
		pos = 0;
		return op(f, b, n, &pos);
	}
	if ((r = mutex_lock_killable(&f->pos_lock)) < 0)
		return r;
	pos = f->pos;
	r = op(f, b, n, &pos);
	f->pos = pos;
	mutex_unlock(&f->pos_lock);
	return r;
}

long kernel_read(struct file *f, void *buf, size_t n)
{
	struct iobuf b = { (uintptr_t)buf, false };

	return file_rw(f, false, b, n, NULL);
}

static long user_rw(struct files *fs, int fd, bool write, uint32_t ubuf, size_t n,
		    uint64_t *ppos)
{
	struct iobuf b = { ubuf, true };
	struct file *f = fd_get(fs, fd);
	long r;

	if (!f)
		return -EBADF;
	if (!(f->mode & (write ? FMODE_WRITE : FMODE_READ)))
		r = -EBADF;
	else if (!user_range_ok(ubuf, n))
		r = -EFAULT;
	else if (n > 0x7fffffffu)
		r = -EINVAL;            /* a negative ssize_t */
	else
		r = file_rw(f, write, b, n, ppos);
	file_put(f);
	return r;
}

long do_read(struct files *fs, int fd, uint32_t ubuf, size_t n)
{
	return user_rw(fs, fd, false, ubuf, n, NULL);
}

long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n)
{
	return user_rw(fs, fd, true, ubuf, n, NULL);
}

/* Linux's rw_copy_check_uvector, per vector: a negative length or a sum
 * past ssize_t is -EINVAL, a range outside user space -EFAULT. */
static long check_iovec(const struct user_iovec *iov, int nr)
{
	uint32_t total = 0;

	for (int i = 0; i < nr; i++) {
		if (iov[i].len > 0x7fffffffu || iov[i].len > 0x7fffffffu - total)
			return -EINVAL;
		if (!user_range_ok(iov[i].base, iov[i].len))
			return -EFAULT;
		total += iov[i].len;
	}
	return total;
}

/* Vector after vector; a short transfer ends the call (Linux's
 * do_loop_readv_writev). The console writes all vectors at once, so a
 * line made of two comes out whole (file_ops.writev). */
static long rw_vectors(struct file *f, bool write, const struct user_iovec *iov, int nr)
{
	long done = 0;

	if (write && f->fop && f->fop->writev)
		return f->fop->writev(f, iov, nr);
	for (int i = 0; i < nr; i++) {
		struct iobuf b = { iov[i].base, true };
		long r;

		if (iov[i].len == 0)
			continue;
		r = file_rw(f, write, b, iov[i].len, NULL);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((uint32_t)r < iov[i].len)
			break;
	}
	return done;
}

static long do_rwv(struct files *fs, int fd, bool write, uint32_t uiov, int iovcnt)
{
	struct user_iovec fast[UIO_FASTIOV], *iov = fast;
	struct file *f = fd_get(fs, fd);
	size_t bytes = (size_t)iovcnt * sizeof(*iov);
	long r;

	if (!f)
		return -EBADF;
	if (!(f->mode & (write ? FMODE_WRITE : FMODE_READ)))
		r = -EBADF;
	else if (iovcnt == 0)
		r = 0;
	else if ((unsigned)iovcnt > UIO_MAXIOV)
		r = -EINVAL;
	else if (iovcnt > UIO_FASTIOV && !(iov = kmalloc(bytes)))
		r = -ENOMEM;
	else if (copy_from_user(iov, uiov, bytes))
		r = -EFAULT;
	else if ((r = check_iovec(iov, iovcnt)) > 0)
		r = rw_vectors(f, write, iov, iovcnt);
	if (iov != fast)
		kfree(iov);
	file_put(f);
	return r;
}

long do_writev(struct files *fs, int fd, uint32_t uiov, int iovcnt)
{
	return do_rwv(fs, fd, true, uiov, iovcnt);
}

/* ---- lseek ---- */

static long long do_lseek(int fd, long long off, unsigned whence)
{
	struct file *f = fd_get(current->files, fd);
	long long base, r;

	if (!f)
		return -EBADF;
	if (!f->fop || !f->fop->seekable) {
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

SYSCALL(SYS_lseek, lseek)
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
SYSCALL(SYS__llseek, _llseek)
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
	return user_rw(current->files, (int)arg[0], write, arg[1], arg[2], &pos);
}

SYSCALL(SYS_pread64, pread64)
{
	return do_prw(arg, false);
}

SYSCALL(SYS_pwrite64, pwrite64)
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

SYSCALL(SYS_sendfile, sendfile)
{
	return do_sendfile((int)arg[0], (int)arg[1], arg[2], false, arg[3]);
}

SYSCALL(SYS_sendfile64, sendfile64)
{
	return do_sendfile((int)arg[0], (int)arg[1], arg[2], true, arg[3]);
}

/* ---- the system calls: the calling task's fd table ---- */

SYSCALL(SYS_read, read)
{
	return do_read(current->files, (int)arg[0], arg[1], arg[2]);
}

SYSCALL(SYS_write, write)
{
	return do_write(current->files, (int)arg[0], arg[1], arg[2]);
}

SYSCALL(SYS_readv, readv)
{
	return do_rwv(current->files, (int)arg[0], false, arg[1], (int)arg[2]);
}

SYSCALL(SYS_writev, writev)
{
	return do_writev(current->files, (int)arg[0], arg[1], (int)arg[2]);
}
