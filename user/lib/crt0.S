/* user/lib/crt0.S - _start, where every user program begins.
 *
 * The kernel enters here with the stack of abi.md section 2 (as Linux/i386,
 * SysV i386 ABI figure 3-31):
 *
 *     %esp -> argc
 *             argv[0] ... argv[argc-1], NULL
 *             envp[0] ... NULL
 *             auxv: (type, value) pairs ... AT_NULL
 *
 * and every general register 0. _start hands that pointer to
 * __libc_start (start.c), which never returns.
 *
 * _start is weak: a program may bring its own (t_exec_child does, to record
 * the registers the kernel started it with) and then jump to __crt0_start. */
	.text
	.globl _start
	.weak _start
	.globl __crt0_start
	.type _start, @function
	.type __crt0_start, @function
_start:
__crt0_start:
	xorl %ebp, %ebp         /* the outermost frame: backtraces stop here */
	movl %esp, %eax         /* -> argc */
	andl $-16, %esp         /* gcc assumes a 16-byte aligned stack at each call */
	subl $12, %esp          /* ...and the one argument keeps it so */
	pushl %eax
	call __libc_start       /* never returns */
	ud2                     /* if it does: SIGILL, not a walk into the void */
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
