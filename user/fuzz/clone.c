/* user/fuzz/clone.c - the fuzzer's three pieces of assembly (fuzz.h):
 *
 *   fz_clone      clone(2) whose child calls fn(arg) on the new stack,
 *                 then clears the word just under the stack's top (newsp
 *                 - 4, the slot's busy word, which CLONE_RELEASE_VM also
 *                 clears) and exits 0. The child finds fn in %ebp, arg in
 *                 %edi and newsp in %ecx: it starts with every register
 *                 but %eax and %esp as the parent had them (abi.md
 *                 section 4), so nothing is stored on the new stack.
 *   fz_clone_raw  clone(2) with any arguments; the child exits at once,
 *                 without touching memory: its stack may be garbage.
 *   fz_sigreturn_at  rt_sigreturn with the frame at `frame`: the kernel
 *                 reads it at %esp - 4 (arch/i386/signal_frame.h).
 *
 * In a C file only so that the numbers come from lib/abi.h, which is C. */
#include "user/fuzz/fuzz.h"

#define FZ_STR_(x) #x
#define FZ_STR(x) FZ_STR_(x)

__asm__(
	"	.text\n"
	"	.globl fz_clone\n"
	"	.type fz_clone, @function\n"
	"fz_clone:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 20(%esp), %ebx\n"          /* flags */
	"	movl 24(%esp), %ecx\n"          /* newsp */
	"	movl 28(%esp), %edx\n"          /* ptid */
	"	movl 32(%esp), %esi\n"          /* tls */
	"	movl 36(%esp), %ebp\n"          /* fn */
	"	movl 40(%esp), %edi\n"          /* arg */
	"	movl $" FZ_STR(SYS_clone) ", %eax\n"
	"	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jz 1f\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"1:	andl $-16, %esp\n"
	"	subl $8, %esp\n"
	"	pushl %ecx\n"                   /* newsp, for the busy word */
	"	pushl %edi\n"
	"	call *%ebp\n"
	"	addl $4, %esp\n"
	"	popl %ecx\n"
	"	movl $0, -4(%ecx)\n"            /* the stack is free from here */
	"	movl $" FZ_STR(SYS_exit) ", %eax\n"
	"	xorl %ebx, %ebx\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size fz_clone, . - fz_clone\n"

	"	.globl fz_clone_raw\n"
	"	.type fz_clone_raw, @function\n"
	"fz_clone_raw:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 20(%esp), %ebx\n"
	"	movl 24(%esp), %ecx\n"
	"	movl 28(%esp), %edx\n"
	"	movl 32(%esp), %esi\n"
	"	movl 36(%esp), %edi\n"
	"	movl $" FZ_STR(SYS_clone) ", %eax\n"
	"	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jnz 2f\n"
	"	movl $" FZ_STR(SYS_exit) ", %eax\n"
	"	xorl %ebx, %ebx\n"
	"	int $0x80\n"
	"	ud2\n"
	"2:	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size fz_clone_raw, . - fz_clone_raw\n"

	"	.globl fz_sigreturn_at\n"
	"	.type fz_sigreturn_at, @function\n"
	"fz_sigreturn_at:\n"
	"	movl 4(%esp), %eax\n"
	"	leal 4(%eax), %esp\n"
	"	movl $" FZ_STR(SYS_rt_sigreturn) ", %eax\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size fz_sigreturn_at, . - fz_sigreturn_at\n");
