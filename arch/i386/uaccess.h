/* arch/i386/uaccess.h - copying between the kernel and user memory.
 *
 * Every user pointer a system call takes goes through these. They check
 * that the whole range is below USER_TOP (0xC0000000) without wrapping,
 * then copy; a page fault on the way is first offered to the address space
 * (vm_fault: demand paging, copy-on-write), and if that fails the copy
 * stops through the exception table (extable.h) and the call returns
 * -EFAULT. So NULL, an unmapped page, a kernel address, a range that
 * crosses into the kernel or a read-only page (for writes: CR0.WP is on)
 * all give -EFAULT, never a panic. */
#ifndef ARCH_I386_UACCESS_H
#define ARCH_I386_UACCESS_H

#include "lib/types.h"
#include "lib/errno.h"
#include "lib/abi.h"                /* USER_TOP */

/* usercopy.S: n bytes, surviving page faults; the bytes NOT copied. */
size_t user_copy(void *dst, const void *src, size_t n);

/* Is [uaddr, uaddr+n) inside user space? */
static inline bool user_range_ok(uint32_t uaddr, size_t n)
{
	return uaddr + n >= uaddr && uaddr + n <= USER_TOP;
}

/* 0 or -EFAULT. Inline, as Linux's: the range check and one call to the
 * copy (a set_thread_area spent 12 of its instructions on the call
 * between them). */
static inline int copy_from_user(void *dst, uint32_t usrc, size_t n)
{
	if (!user_range_ok(usrc, n))
		return -EFAULT;
	return user_copy(dst, (const void *)usrc, n) ? -EFAULT : 0;
}

static inline int copy_to_user(uint32_t udst, const void *src, size_t n)
{
	if (!user_range_ok(udst, n))
		return -EFAULT;
	return user_copy((void *)udst, src, n) ? -EFAULT : 0;
}

static inline int get_user32(uint32_t *val, uint32_t uaddr)
{
	return copy_from_user(val, uaddr, sizeof(*val));
}

static inline int put_user32(uint32_t uaddr, uint32_t val)
{
	return copy_to_user(uaddr, &val, sizeof(val));
}

int clear_user(uint32_t udst, size_t n);

/* Copies a NUL-terminated string of at most max-1 characters; returns its
 * length, -EFAULT, or -ENAMETOOLONG when no NUL comes within max bytes. */
long strncpy_from_user(char *dst, uint32_t usrc, size_t max);

#endif
