/* compat/linux/fs/ramfs_file.c - the RAM file system's regular files.
 *
 * A file's bytes live in whole pages taken from the frame pool, listed
 * in an array indexed by page number (u.reg.pages). A page never written
 * is absent and reads as zeros, so a file may have holes (lseek past the
 * end, then write), as on Linux. Truncation frees the pages past the new
 * end and zeroes the rest of the last one, so the file reads as zeros if
 * it grows again.
 *
 * The file system is bounded by free memory: a write that needs a page
 * when fewer than ramfs_reserve_frames() are free stops there (a short
 * write, or -ENOSPC if nothing was written). The reserve keeps the
 * kernel and the running programs able to work when someone fills the
 * file system (Linux's ramfs has no limit; its tmpfs stops at half of
 * the RAM). Everything here runs with the inode's mutex held. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "arch/i386/uaccess.h"
#include "kernel/panic.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/mmu.h"
#include "lib/string.h"

#define RAMFS_MAX_SIZE (1ull << 30)     /* -EFBIG beyond: 1 GiB */

static const char zero_page[PAGE_SIZE];

/* The pages that hold files' bytes, for /proc/kstat. */
static uint32_t data_pages;

uint32_t ramfs_data_pages(void)
{
	return __atomic_load_n(&data_pages, __ATOMIC_RELAXED);
}

static void data_page_free(void *page)
{
	__atomic_sub_fetch(&data_pages, 1, __ATOMIC_RELAXED);
	page_free(page, 0);
}

uint32_t ramfs_reserve_frames(void)
{
	return pmm_total_frames() / 32 + 64;    /* 3% of RAM and 256 KiB */
}

/* Room in pages[] for page numbers below need. */
static long ensure_slots(struct inode *i, uint32_t need)
{
	uint32_t n = i->u.reg.npages ? i->u.reg.npages : 8;
	void **pages;

	if (i->u.reg.npages >= need)
		return 0;
	while (n < need)
		n *= 2;
	if (!(pages = kzalloc(n * sizeof(void *))))
		return -ENOSPC;
	if (i->u.reg.pages)
		memcpy(pages, i->u.reg.pages, i->u.reg.npages * sizeof(void *));
	kfree(i->u.reg.pages);
	i->u.reg.pages = pages;
	i->u.reg.npages = n;
	return 0;
}

/* The number of slots ensure_slots gives a file of size bytes written
 * from empty: none for an empty file, else 8 doubled until they cover its
 * last page. */
static uint32_t slots_for(uint64_t size)
{
	uint32_t need = (uint32_t)((size + PAGE_SIZE - 1) >> PAGE_SHIFT), n = 8;

	if (need == 0)
		return 0;
	while (n < need)
		n *= 2;
	return n;
}

/* After a truncation or a failed write: free every page past the end
 * (a write whose copy faulted may have left a fresh page there) and
 * shrink pages[] to slots_for(i->size). Without this a file that had
 * grown to 64 MiB and was truncated back kept a 64 KiB slot array for
 * good: frames no object cache counted, and a fuzz run that grew a file
 * and put it back came back short (docs/fuzzing.md). If the smaller
 * array cannot be had, the larger one stays: still correct. */
static void ramfs_trim(struct inode *i)
{
	uint32_t keep = (uint32_t)((i->size + PAGE_SIZE - 1) >> PAGE_SHIFT);
	uint32_t n = slots_for(i->size);
	void **pages = NULL;

	for (uint32_t p = keep; p < i->u.reg.npages; p++)
		if (i->u.reg.pages[p]) {
			data_page_free(i->u.reg.pages[p]);
			i->u.reg.pages[p] = NULL;
		}
	if (n >= i->u.reg.npages)
		return;
	if (n && !(pages = kmalloc(n * sizeof(void *))))
		return;
	if (n)
		memcpy(pages, i->u.reg.pages, n * sizeof(void *));
	kfree(i->u.reg.pages);
	i->u.reg.pages = pages;
	i->u.reg.npages = n;
}

long ramfs_reg_read(struct inode *i, struct iobuf buf, size_t n, uint64_t pos)
{
	size_t done = 0;

	mutex_assert_held(&i->mutex);
	if (pos >= i->size)
		return 0;
	if (n > i->size - pos)
		n = (size_t)(i->size - pos);
	if (n == 0)
		return 0;
	while (done < n) {
		uint32_t idx = (uint32_t)(pos >> PAGE_SHIFT), off = (uint32_t)(pos & (PAGE_SIZE - 1));
		size_t k = PAGE_SIZE - off, got;
		const char *page;

		if (k > n - done)
			k = n - done;
		page = idx < i->u.reg.npages && i->u.reg.pages[idx] ? i->u.reg.pages[idx] : zero_page;
		got = iob_put(buf, done, page + off, k);
		done += got;
		pos += got;
		if (got < k)
			break;
	}
	return done ? (long)done : -EFAULT;
}

static long ramfs_reg_write(struct inode *i, struct iobuf buf, size_t n, uint64_t pos)
{
	size_t done = 0;
	long err = 0;

	mutex_assert_held(&i->mutex);
	if (n == 0)
		return 0;
	if (pos >= RAMFS_MAX_SIZE)
		return -EFBIG;
	if (n > RAMFS_MAX_SIZE - pos)
		n = (size_t)(RAMFS_MAX_SIZE - pos);
	if ((err = ensure_slots(i, (uint32_t)((pos + n + PAGE_SIZE - 1) >> PAGE_SHIFT))) < 0)
		return err;
	while (done < n) {
		uint32_t idx = (uint32_t)(pos >> PAGE_SHIFT), off = (uint32_t)(pos & (PAGE_SIZE - 1));
		size_t k = PAGE_SIZE - off, got;
		char *page = i->u.reg.pages[idx];

		if (k > n - done)
			k = n - done;
		if (!page) {
			if (pmm_free_frames() < ramfs_reserve_frames() || !(page = page_alloc(0))) {
				err = -ENOSPC;
				break;
			}
			__atomic_add_fetch(&data_pages, 1, __ATOMIC_RELAXED);
			memset(page, 0, PAGE_SIZE);
			i->u.reg.pages[idx] = page;
		}
		got = iob_get(page + off, buf, done, k);
		done += got;
		pos += got;
		if (got < k) {
			err = -EFAULT;
			break;
		}
	}
	if (done && pos > i->size)     /* a write that wrote nothing leaves the size */
		i->size = pos;
	if (err)
		ramfs_trim(i);
	if (done)
		inode_touch(i, true);
	return done ? (long)done : err;
}

long ramfs_truncate(struct inode *i, uint64_t size)
{
	uint32_t keep = (uint32_t)((size + PAGE_SIZE - 1) >> PAGE_SHIFT);

	mutex_assert_held(&i->mutex);
	if (size > RAMFS_MAX_SIZE)
		return -EFBIG;
	if (size < i->size && (size & (PAGE_SIZE - 1)) && keep <= i->u.reg.npages &&
	    i->u.reg.pages[keep - 1])
		memset((char *)i->u.reg.pages[keep - 1] + (size & (PAGE_SIZE - 1)), 0,
		       PAGE_SIZE - (size & (PAGE_SIZE - 1)));
	i->size = size;
	ramfs_trim(i);
	inode_touch(i, true);
	return 0;
}

void ramfs_reg_evict(struct inode *i)
{
	for (uint32_t p = 0; p < i->u.reg.npages; p++)
		if (i->u.reg.pages[p])
			data_page_free(i->u.reg.pages[p]);
	kfree(i->u.reg.pages);
}

/* ---- the open file's side ---- */

static long reg_read(struct file *f, struct iobuf buf, size_t n, uint64_t *pos)
{
	struct inode *i = f->inode;
	long r;

	if ((r = mutex_lock_killable(&i->mutex)) < 0)
		return r;
	r = ramfs_reg_read(i, buf, n, *pos);
	if (r > 0) {
		*pos += (uint64_t)r;
		inode_touch(i, false);
	}
	mutex_unlock(&i->mutex);
	return r;
}

static long reg_write(struct file *f, struct iobuf buf, size_t n, uint64_t *pos)
{
	struct inode *i = f->inode;
	long r;

	if ((r = mutex_lock_killable(&i->mutex)) < 0)
		return r;
	if (f->flags & O_APPEND)        /* at the end, under the lock: atomic */
		*pos = i->size;
	r = ramfs_reg_write(i, buf, n, *pos);
	if (r > 0)
		*pos += (uint64_t)r;
	mutex_unlock(&i->mutex);
	return r;
}

/* FIONREAD on a file: the bytes from the offset to the end (Linux). */
static long reg_ioctl(struct file *f, unsigned cmd, uint32_t arg)
{
	uint64_t size = f->inode->size, left;

	if (cmd != FIONREAD)
		return -ENOTTY;
	left = size > f->pos ? size - f->pos : 0;
	if (left > 0x7fffffff)
		left = 0x7fffffff;
	return put_user32(arg, (uint32_t)left) ? -EFAULT : 0;
}

const struct file_ops ramfs_reg_fops = {
	.read = reg_read,
	.write = reg_write,
	.ioctl = reg_ioctl,
	.seekable = true,
};
