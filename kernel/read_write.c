/* kernel/read_write.c - read, write and writev (file.h; abi.md section 3),
 * named after Linux's fs/read_write.c.
 *
 * Error precedence follows Linux 2.6 so a program sees the same errno on
 * both: the fd (-EBADF), its access mode (-EBADF), the whole buffer's
 * range (-EFAULT, access_ok), then a count that would be a negative
 * ssize_t (-EINVAL, rw_verify_area). A buffer that is valid but partly
 * unmapped is read or written up to the first bad page and the call
 * returns that count, as Linux does; -EFAULT only when not one byte got
 * through. */
#include "kernel/file.h"
#include "kernel/console.h"
#include "kernel/initrd.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/tty.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define WRITE_CHUNK  512        /* console bytes written under one lock */
#define UIO_FASTIOV  8          /* writev vectors that fit on the stack */

/* struct iovec as i386 user space lays it out. */
struct user_iovec {
	uint32_t base;
	uint32_t len;
};
_Static_assert(sizeof(struct user_iovec) == 8, "struct iovec is 8 bytes on i386");

/* ---- read ---- */

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

/* The offset is claimed under the lock before the copy (which may fault
 * and so cannot hold a spinlock); a failed copy gives back the part not
 * read, unless another reader of the shared file has moved on since. */
static long initrd_read(struct file *f, uintptr_t dst, size_t n, bool to_kernel)
{
	const char *data = f->node->data;
	uint32_t size = f->node->size, off, len;
	long got;

	spin_lock(&f->lock);
	off = f->offset;
	len = off < size ? size - off : 0;
	if (len > n)
		len = (uint32_t)n;
	f->offset = off + len;
	spin_unlock(&f->lock);
	if (len == 0)
		return 0;
	if (to_kernel) {
		memcpy((void *)dst, data + off, len);
		return len;
	}
	got = copy_to_user_partial(dst, data + off, len);
	if (got != (long)len) {
		spin_lock(&f->lock);
		if (f->offset == off + len)
			f->offset = off + (got > 0 ? (uint32_t)got : 0);
		spin_unlock(&f->lock);
	}
	return got;
}

long kernel_read(struct file *f, void *buf, size_t n)
{
	if (!(f->mode & FMODE_READ))
		return -EBADF;
	if (f->kind == FILE_DIR)
		return -EISDIR;
	if (f->kind != FILE_INITRD)
		return -EINVAL;
	return initrd_read(f, (uintptr_t)buf, n, true);
}

/* Linux's access_ok then rw_verify_area. */
static long rw_check(struct file *f, unsigned need, uint32_t ubuf, size_t n)
{
	if (!(f->mode & need))
		return -EBADF;
	if (!user_range_ok(ubuf, n))
		return -EFAULT;
	if (n > MAX_RW_COUNT)
		return -EINVAL;
	return 0;
}

long do_read(struct files *fs, int fd, uint32_t ubuf, size_t n)
{
	struct file *f = fd_get(fs, fd);
	long r;

	if (!f)
		return -EBADF;
	r = rw_check(f, FMODE_READ, ubuf, n);
	if (r == 0) {
		switch (f->kind) {
		case FILE_CONSOLE:
			r = n ? tty_read(ubuf, n) : 0;
			break;
		case FILE_INITRD:
			r = initrd_read(f, ubuf, n, false);
			break;
		case FILE_DIR:
			r = -EISDIR;
			break;
		}
	}
	file_put(f);
	return r;
}

/* ---- write ---- */

/* Like copy_to_user_partial, the other way. */
static size_t copy_from_user_partial(void *dst, uint32_t usrc, size_t n)
{
	size_t done = 0;

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

/* Gathers the vectors WRITE_CHUNK bytes at a time and writes each chunk
 * under the console lock, so a line written at once (musl's printf
 * writes its buffer and the new text as two vectors) comes out whole,
 * never cut by a kernel message. Stops at the first unreadable byte. */
static long console_writev(const struct user_iovec *iov, int nr)
{
	char kbuf[WRITE_CHUNK];
	uint32_t off = 0;
	long done = 0;
	bool fault = false;
	int i = 0;

	while (i < nr && !fault) {
		size_t fill = 0;
		while (i < nr && fill < sizeof(kbuf)) {
			size_t k = iov[i].len - off, got;
			if (k > sizeof(kbuf) - fill)
				k = sizeof(kbuf) - fill;
			got = copy_from_user_partial(kbuf + fill, iov[i].base + off, k);
			fill += got;
			off += got;
			if (got < k) {
				fault = true;
				break;
			}
			if (off == iov[i].len) {
				i++;
				off = 0;
			}
		}
		console_lock();
		console_write(kbuf, fill);
		console_unlock();
		done += (long)fill;
	}
	return done || !fault ? done : -EFAULT;
}

long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n)
{
	struct user_iovec iov = { ubuf, (uint32_t)n };
	struct file *f = fd_get(fs, fd);
	long r;

	if (!f)
		return -EBADF;
	r = rw_check(f, FMODE_WRITE, ubuf, n);
	/* Only the console is ever open for writing. */
	if (r == 0 && n > 0)
		r = console_writev(&iov, 1);
	file_put(f);
	return r;
}

/* Linux's rw_copy_check_uvector, per vector: a negative length or a sum
 * past ssize_t is -EINVAL, a range outside user space -EFAULT. */
static long check_iovec(const struct user_iovec *iov, int nr)
{
	uint32_t total = 0;

	for (int i = 0; i < nr; i++) {
		if (iov[i].len > MAX_RW_COUNT || iov[i].len > MAX_RW_COUNT - total)
			return -EINVAL;
		if (!user_range_ok(iov[i].base, iov[i].len))
			return -EFAULT;
		total += iov[i].len;
	}
	return total;
}

long do_writev(struct files *fs, int fd, uint32_t uiov, int iovcnt)
{
	struct user_iovec fast[UIO_FASTIOV], *iov = fast;
	struct file *f = fd_get(fs, fd);
	size_t bytes = (size_t)iovcnt * sizeof(*iov);
	long r;

	if (!f)
		return -EBADF;
	if (!(f->mode & FMODE_WRITE))
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
		r = console_writev(iov, iovcnt);
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
	return do_writev(current->files, (int)arg[0], arg[1], (int)arg[2]);
}
