/* arch/i386/usercopy.S - the instructions that touch user memory.
 *
 *   size_t user_copy(void *dst, const void *src, size_t n);
 *
 * copies n bytes (rep movsl, then rep movsb for the last n % 4) and
 * returns the bytes NOT copied: 0 on success. If a page fault cannot be
 * resolved, trap() jumps to a fixup, which returns the remaining count. The caller (uaccess.c) has
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
	pushl %ebx
	movl 16(%esp), %edi
	movl 20(%esp), %esi
	movl 24(%esp), %ecx
	movl %ecx, %ebx
	andl $3, %ebx             /* the bytes after the whole dwords */
	shrl $2, %ecx
1:	rep movsl                 /* four bytes a step ... */
	movl %ebx, %ecx
2:	rep movsb                 /* ... then the last one to three */
	xorl %eax, %eax
3:	popl %ebx
	popl %edi
	popl %esi
	ret
	/* A fault in the dword copy: %ecx dwords and %ebx bytes are left. */
4:	leal (%ebx,%ecx,4), %eax
	jmp 3b
	/* A fault in the byte copy: %ecx bytes are left. */
5:	movl %ecx, %eax
	jmp 3b
	EXTABLE(1b, 4b)
	EXTABLE(2b, 5b)
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
