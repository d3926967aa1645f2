/* arch/i386/vectors.S - the 256 interrupt entry stubs and trap_entry.
 *
 * Each stub makes every vector's frame the same shape: it pushes a zero
 * error code where the CPU pushes none (SDM Vol. 3A 6.13 lists which
 * exceptions push one: 8, 10-14, 17, 21), then the vector number, and jumps
 * to trap_entry, which saves the rest of struct trapframe (trapframe.h)
 * and calls trap(tf). trap_ret restores it all and irets. */
#include "arch/i386/segment.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/extable.h"

/* Vectors whose exception pushes an error code. */
#define HAS_ERR(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || (n) == 21)

	.text
	.globl trap_entry
	.type trap_entry, @function
trap_entry:
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movl $__KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	xorl %eax, %eax           /* no user %fs/%gs base leaks into the kernel */
	movl %eax, %fs
	movl %eax, %gs
	cld                       /* the C ABI assumes DF = 0 */
	pushl %esp                /* the argument: struct trapframe * */
	call trap
	addl $4, %esp
	.globl trap_ret
trap_ret:
	popal
	/* A user %fs/%gs/%es/%ds may name a TLS or LDT slot that was cleared
	 * since it was saved: the pop then faults (#GP or #NP). The fixups
	 * below load 0 instead, as Linux does, so the task reads back a null
	 * selector rather than the kernel taking a fault it cannot handle
	 * (abi.md section 5). */
1:	popl %gs
2:	popl %fs
3:	popl %es
4:	popl %ds
	addl $8, %esp             /* trapno and err */
	iret
	.size trap_entry, . - trap_entry

	/* At the fault, %esp still points at the slot being popped. */
5:	movl $0, (%esp)
	jmp 1b
6:	movl $0, (%esp)
	jmp 2b
7:	movl $0, (%esp)
	jmp 3b
8:	movl $0, (%esp)
	jmp 4b
	EXTABLE(1b, 5b)
	EXTABLE(2b, 6b)
	EXTABLE(3b, 7b)
	EXTABLE(4b, 8b)

/* One stub per vector, 16-byte aligned, and vector_table[256] of their
 * addresses in .rodata (idt.c reads it): each loop round appends one word. */
	.pushsection .rodata
	.align 4
	.globl vector_table
vector_table:
	.popsection

	.set vec, 0
	.rept 256
	.align 16
1:
	.if HAS_ERR(vec)
	.else
	pushl $0
	.endif
	pushl $vec
	jmp trap_entry
	.pushsection .rodata
	.long 1b
	.popsection
	.set vec, vec + 1
	.endr

	.section .note.GNU-stack, "", @progbits
