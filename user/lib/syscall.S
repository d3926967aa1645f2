/* user/lib/syscall.S - raw_syscall0 .. raw_syscall6 (syscall.h).
 *
 * The convention of abi.md section 3: int $0x80, the number in %eax, the
 * arguments in %ebx %ecx %edx %esi %edi %ebp, the result in %eax (-errno on
 * failure), every other register preserved by the kernel.
 *
 * These are cdecl functions, so they must keep %ebx %esi %edi %ebp for
 * their caller; %ebp as the sixth argument is why this is assembly and not
 * inline asm (gcc cannot name %ebp in an asm operand list). Each entry
 * saves all four and loads only the argument registers it needs: reading
 * stack words beyond the arguments passed could run off the top of a
 * thread's stack. */

/* After the four pushes: 16(%esp) is the return address, 20(%esp) nr,
 * 24(%esp) the first argument, ... 44(%esp) the sixth. */
.macro RAW_SYSCALL name, nargs
	.globl \name
	.type \name, @function
\name:
	pushl %ebx
	pushl %esi
	pushl %edi
	pushl %ebp
	movl 20(%esp), %eax
	.if \nargs >= 1
	movl 24(%esp), %ebx
	.endif
	.if \nargs >= 2
	movl 28(%esp), %ecx
	.endif
	.if \nargs >= 3
	movl 32(%esp), %edx
	.endif
	.if \nargs >= 4
	movl 36(%esp), %esi
	.endif
	.if \nargs >= 5
	movl 40(%esp), %edi
	.endif
	.if \nargs >= 6
	movl 44(%esp), %ebp
	.endif
	int $0x80
	popl %ebp
	popl %edi
	popl %esi
	popl %ebx
	ret
	.size \name, . - \name
.endm

	.text
	RAW_SYSCALL raw_syscall0, 0
	RAW_SYSCALL raw_syscall1, 1
	RAW_SYSCALL raw_syscall2, 2
	RAW_SYSCALL raw_syscall3, 3
	RAW_SYSCALL raw_syscall4, 4
	RAW_SYSCALL raw_syscall5, 5
	RAW_SYSCALL raw_syscall6, 6

	.section .note.GNU-stack, "", @progbits
