/* arch/i386/switch.S - the context switch itself.
 *
 *   void switch_context(struct context **old, struct context *new);
 *
 * Pushes the callee-saved registers in struct context order (context.h:
 * the last push is edi, at offset 0), saves %esp into *old, loads %esp
 * from new, pops the other task's registers and returns into it: on the
 * other task's stack, `ret` pops the eip its own call pushed. A new task's
 * stack is prepared by copy_thread (arch/i386/process.c) so this ret lands
 * in ret_from_fork. Everything else about a switch (TLS, TSS, CR3, LDT) is
 * C, in switch_to. */
#include "arch/i386/context.h"

	.text
	.globl switch_context
	.type switch_context, @function
switch_context:
	movl 4(%esp), %eax        /* old */
	movl 8(%esp), %edx        /* new */
	pushl %ebp                /* CTX_EBP */
	pushl %ebx                /* CTX_EBX */
	pushl %esi                /* CTX_ESI */
	pushl %edi                /* CTX_EDI */
	movl %esp, (%eax)
	movl %edx, %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret                       /* CTX_EIP */
	.size switch_context, . - switch_context

	.section .note.GNU-stack, "", @progbits
