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

/* 0 or -EFAULT. */
int copy_from_user(void *dst, uint32_t usrc, size_t n);
int copy_to_user(uint32_t udst, const void *src, size_t n);
int clear_user(uint32_t udst, size_t n);
int get_user32(uint32_t *val, uint32_t uaddr);
int put_user32(uint32_t uaddr, uint32_t val);

/* Copies a NUL-terminated string of at most max-1 characters; returns its
 * length, -EFAULT, or -ENAMETOOLONG when no NUL comes within max bytes. */
long strncpy_from_user(char *dst, uint32_t usrc, size_t max);

/* Is [uaddr, uaddr+n) inside user space? */
static inline bool user_range_ok(uint32_t uaddr, size_t n)
{
	return uaddr + n >= uaddr && uaddr + n <= 0xC0000000u;
}

/* One 32-bit load from user space, inline (Linux's __get_user): 0, or
 * -EFAULT through the exception table, with *val then 0. The caller has
 * checked that the word is below USER_TOP; a page fault on it is offered
 * to vm_fault first, as for every copy. */
static inline int get_user32_unchecked(uint32_t *val, uint32_t uaddr)
{
	int err = 0;
	uint32_t v;

	__asm__ volatile("1:	movl (%2), %1\n"
			 "2:\n"
			 "	.pushsection .text.fixup, \"ax\"\n"
			 "3:	movl %3, %0\n"
			 "	xorl %1, %1\n"
			 "	jmp 2b\n"
			 "	.popsection\n"
			 "	.pushsection __ex_table, \"a\"\n"
			 "	.align 4\n"
			 "	.long 1b, 3b\n"
			 "	.popsection\n"
			 : "+r"(err), "=r"(v)
			 : "r"(uaddr), "i"(-EFAULT)
			 : "memory");
	*val = v;
	return err;
}

/* copy_from_user for a small struct of whole words (a user_desc, a
 * timespec) without a call: n / 4 inline loads, n a multiple of 4 (the
 * _Static_assert at each caller says so). 0 or -EFAULT. */
static inline int copy_from_user_small(void *dst, uint32_t usrc, size_t n)
{
	int err = 0;

	if (!user_range_ok(usrc, n))
		return -EFAULT;
#pragma GCC unroll 8
	for (size_t i = 0; i < n / 4; i++) {
		uint32_t w;
		err |= get_user32_unchecked(&w, usrc + 4 * i);
		__builtin_memcpy((uint8_t *)dst + 4 * i, &w, 4);
	}
	return err;
}

#endif
