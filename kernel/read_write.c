/* kernel/read_write.c - read, write and writev (file.h; abi.md section
 * 3), named after Linux's fs/read_write.c; the Linux layer's readv,
 * pread64, pwrite64, lseek and sendfile (compat/linux/read_write.c) go
 * through the same file_rw.
 *
 * Each call finds the open file, checks it, and hands the bytes to the
 * file's own operations (struct file_ops: a file of the initrd, the
 * console, a /proc snapshot; with the Linux layer a RAM file or a pipe). The offset of a seekable file is taken and
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
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define UIO_FASTIOV  8          /* vectors that fit on the stack */

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

size_t iob_put(struct iobuf b, size_t off, const void *src, size_t n)
{
	long got;

	if (!b.user) {
		memcpy((char *)b.addr + off, src, n);
		return n;
	}
	if (n == 0)
		return 0;
	got = copy_to_user_partial((uint32_t)(b.addr + off), src, n);
	return got < 0 ? 0 : (size_t)got;
}

size_t iob_get(void *dst, struct iobuf b, size_t off, size_t n)
{
	if (!b.user) {
		memcpy(dst, (const char *)b.addr + off, n);
		return n;
	}
	return copy_from_user_partial(dst, (uint32_t)(b.addr + off), n);
}

/* ---- the common path ---- */

long file_rw(struct file *f, bool write, struct iobuf b, size_t n, uint64_t *ppos)
{
	long (*op)(struct file *, struct iobuf, size_t, uint64_t *);
	uint64_t pos;
	long r;

	if (!(f->mode & (write ? FMODE_WRITE : FMODE_READ)))
		return -EBADF;
	if (f->fop->directory)
		return -EISDIR;
	op = write ? f->fop->write : f->fop->read;
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

long kernel_read_at(struct file *f, void *buf, size_t n, uint64_t pos)
{
	struct iobuf b = { (uintptr_t)buf, false };

	return file_rw(f, false, b, n, &pos);
}

long do_rw(struct files *fs, int fd, bool write, uint32_t ubuf, size_t n,
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
	return do_rw(fs, fd, false, ubuf, n, NULL);
}

long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n)
{
	return do_rw(fs, fd, true, ubuf, n, NULL);
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

long do_rwv(struct files *fs, int fd, bool write, uint32_t uiov, int iovcnt)
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

/* ---- the system calls: the calling task's fd table ---- */

SYSCALL(SYS_read, read)
{
	return do_read(current->files, (int)arg[0], arg[1], arg[2]);
}

SYSCALL(SYS_write, write)
{
	return do_write(current->files, (int)arg[0], arg[1], arg[2]);
}

SYSCALL(SYS_writev, writev)
{
	return do_rwv(current->files, (int)arg[0], true, arg[1], (int)arg[2]);
}
