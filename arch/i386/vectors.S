/* arch/i386/vectors.S - the 256 interrupt entry stubs, trap_entry and
 * syscall_entry.
 *
 * Each stub makes every vector's frame the same shape: it pushes a zero
 * error code where the CPU pushes none (SDM Vol. 3A 6.13 lists which
 * exceptions push one: 8, 10-14, 17, 21), then the vector number, and jumps
 * to trap_entry, which saves the rest of struct trapframe (trapframe.h)
 * and calls trap(tf). trap_ret restores it all and irets.
 *
 * int $0x80 has an entry of its own, syscall_entry (idt.c points vector
 * 0x80 there), as Linux 2.5's system_call in entry.S: the same frame, but
 * no trap() to sort vectors out; the handler is called straight from the
 * table with the arguments pushed where its arg[] pointer finds them.
 * It is the kernel's one system-call path (there is no C dispatcher). */
#include "arch/i386/segment.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/extable.h"
#include "arch/i386/traps.h"
#include "kernel/syscall.h"

/* Vectors whose exception pushes an error code. */
#define HAS_ERR(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || (n) == 21)

/* The rest of struct trapframe after the stub's two words, then the
 * kernel's data segments. %edx is the only register changed. */
.macro SAVE_FRAME
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	pushal
	movl $__KERNEL_DS, %edx
	movl %edx, %ds
	movl %edx, %es
	xorl %edx, %edx           /* no user %fs/%gs base leaks into the kernel */
	movl %edx, %fs
	movl %edx, %gs
	cld                       /* the C ABI assumes DF = 0 */
.endm

	.text
	.globl trap_entry
	.type trap_entry, @function
trap_entry:
	SAVE_FRAME
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
9:	iret
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

	/* The iret itself faults when the %ss it loads names a descriptor
	 * that is gone or unusable (a TLS or LDT slot cleared after the task
	 * loaded %ss with it): #GP, #NP or #SS in the kernel (SDM Vol. 2A
	 * IRET, "Protected Mode Exceptions"). The user's registers are all
	 * loaded again by then and %esp points at its eip, cs, eflags, esp
	 * and ss, the top of its frame: as Linux's iret_exc, make that a
	 * fault of the task's own (a whole frame built again at the same
	 * place, current->tf), which trap() turns into SIGSEGV. Delivering
	 * it loads %ss = __USER_DS (signal_frame.c), or the group dies. */
10:	pushl $0                  /* err */
	pushl $T_GPFLT
	jmp trap_entry
	EXTABLE(9b, 10b)

/* int $0x80 (abi.md section 3): number in %eax, arguments in %ebx %ecx
 * %edx %esi %edi %ebp. This is the only way into a system call: the
 * in-kernel tests issue int $0x80 too (tests/guest/ktest_signal.c).
 *
 * The interrupt gate entered with interrupts off; a system call runs with
 * them on (sti once the frame is saved). From ring 3 the frame is at the
 * top of the task's kernel stack, where current->tf already points
 * (process.c sets it once: every entry from ring 3 lands there).
 *
 * Why it is written like this rather than as `trap(tf)` plus a C
 * dispatcher (make bench's getpid row; docs/benchmarks.md): the handler
 * is called straight from syscall_table[nr] (syscall.h), and its
 * `const uint32_t *arg` points at six copies of the argument registers
 * pushed below the frame, in the i386 argument order. pushal stores them
 * in another order (edi esi ebp esp ebx edx ecx eax, trapframe.h), so
 * arg cannot point into the frame itself. The stack then reads, from
 * %esp up:
 *
 *      arg pointer | ebx ecx edx esi edi ebp | struct trapframe
 *      (1 word)      (SYSCALL_NARGS words)     (at %ebx)
 *
 * which is SYSCALL_ARGS_BYTES = (1 + SYSCALL_NARGS) * 4 = 28 bytes that
 * are dropped in one addl before trap_ret. */
#define SYSCALL_ARGS_BYTES ((1 + SYSCALL_NARGS) * 4)
	.if SYSCALL_NARGS != 6
	.error "syscall_entry pushes six argument registers: SYSCALL_NARGS must be 6"
	.endif
	.globl syscall_entry
	.type syscall_entry, @function
syscall_entry:
	pushl %eax                /* err: the call's number, Linux's orig_eax;
				   * %eax will hold the result
				   * (syscall_restart.h) */
	pushl $T_SYSCALL          /* trapno */
	SAVE_FRAME
	/* %ebx is callee-saved in the C ABI: it keeps tf across both calls
	 * below. (The user's %ebx is safe in the frame, at TF_EBX.) */
	movl %esp, %ebx
	sti
	/* The handler in %eax: syscall_table[nr], or sys_ni_syscall (-ENOSYS)
	 * for a number past the table (the unsigned compare also catches a
	 * negative %eax). The out-of-range case jumps out of line, at 2:, so
	 * the common path falls straight through. */
	cmpl $NR_SYSCALLS, %eax
	jae 2f
	movl syscall_table(,%eax,4), %eax
1:	/* arg[0..5] for the handler, arg[0] (%ebx) at the lowest address */
	pushl TF_EBP(%ebx)
	pushl TF_EDI(%ebx)
	pushl TF_ESI(%ebx)
	pushl TF_EDX(%ebx)
	pushl TF_ECX(%ebx)
	pushl TF_EBX(%ebx)
	pushl %esp                /* const uint32_t *arg: push %esp stores
				   * %esp as it was before the push (SDM
				   * Vol. 2B PUSH), the address of arg[0] */
	call *%eax
	movl %eax, TF_EAX(%ebx)   /* the result, or -errno */
	/* The arg pointer's slot becomes return_to_user_prepare's argument,
	 * tf, instead of a pop and a push. */
	movl %ebx, (%esp)
	call return_to_user_prepare     /* reschedule, signals; ends with cli */
	addl $SYSCALL_ARGS_BYTES, %esp  /* arg pointer and the six copies */
	jmp trap_ret
2:	movl $sys_ni_syscall, %eax      /* a number past the table: -ENOSYS */
	jmp 1b
	.size syscall_entry, . - syscall_entry

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
