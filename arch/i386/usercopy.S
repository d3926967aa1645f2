/* arch/i386/usercopy.S - the instructions that touch user memory.
 *
 *   size_t user_copy(void *dst, const void *src, size_t n);
 *
 * copies n bytes with rep movsb and returns the bytes NOT copied: 0 on
 * success. If a page fault cannot be resolved, trap() jumps to the fixup,
 * which returns the remaining count (%ecx). The caller (uaccess.c) has
 * already checked the user range; this only survives the faults.
 *
 *   long user_strnlen_copy(char *dst, const char *src, size_t max);
 *
 * copies bytes up to and including a NUL, at most max; returns the
 * length without the NUL, max if none was found, or -1 on a fault. */
#include "arch/i386/extable.h"

	.text
	.globl user_copy
	.type user_copy, @function
user_copy:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
1:	rep movsb
2:	movl %ecx, %eax
	popl %edi
	popl %esi
	ret
	EXTABLE(1b, 2b)
	.size user_copy, . - user_copy

	.globl user_strncpy
	.type user_strncpy, @function
user_strncpy:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
	xorl %eax, %eax
3:	testl %ecx, %ecx
	jz 5f
4:	movb (%esi,%eax), %dl
	movb %dl, (%edi,%eax)
	testb %dl, %dl
	jz 5f
	incl %eax
	decl %ecx
	jmp 3b
5:	popl %edi
	popl %esi
	ret
6:	movl $-1, %eax
	jmp 5b
	EXTABLE(4b, 6b)
	.size user_strncpy, . - user_strncpy

	.section .note.GNU-stack, "", @progbits
