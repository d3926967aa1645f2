/* arch/i386/context.h - what switch_context (switch.S) saves.
 *
 * Only the callee-saved registers of the i386 System V ABI (ebx, esi,
 * edi, ebp) need saving across a call: the compiler already assumes the
 * others are clobbered. switch_context pushes them in this order and then
 * saves %esp, so struct context, read upward from the saved %esp, *is* the
 * push order (xv6's swtch.S idea). eip is the return address that the call
 * to switch_context pushed. Segment registers are not here: user ones are
 * in the trapframe, kernel ones are the same for every task. */
#ifndef ARCH_I386_CONTEXT_H
#define ARCH_I386_CONTEXT_H

#define CTX_EDI 0
#define CTX_ESI 4
#define CTX_EBX 8
#define CTX_EBP 12
#define CTX_EIP 16

#ifndef __ASSEMBLER__
#include "lib/types.h"
#include "arch/i386/desc.h"
#include "arch/i386/segment.h"
#include "arch/i386/fpu.h"

struct context {
	uint32_t edi, esi, ebx, ebp;
	uint32_t eip;
};
_Static_assert(__builtin_offsetof(struct context, edi) == CTX_EDI, "switch.S");
_Static_assert(__builtin_offsetof(struct context, esi) == CTX_ESI, "switch.S");
_Static_assert(__builtin_offsetof(struct context, ebx) == CTX_EBX, "switch.S");
_Static_assert(__builtin_offsetof(struct context, ebp) == CTX_EBP, "switch.S");
_Static_assert(__builtin_offsetof(struct context, eip) == CTX_EIP, "switch.S");

/* Saves the callee-saved registers on this stack, stores %esp in *old,
 * and continues on the stack `new` with the registers saved there. */
void switch_context(struct context **old, struct context *new);

/* The per-task i386 state (Linux's thread_struct). tls_array is the
 * seed's cache of the three TLS descriptors, copied into the CPU's GDT
 * entries 6..8 at every switch by load_TLS. fpu is the x87/SSE state
 * (arch/i386/fpu.h): a pointer to a 512-byte area and three words, so a
 * task that never computes in floating point carries no FPU area. */
struct thread_struct {
	struct desc tls_array[GDT_ENTRY_TLS_ENTRIES];
	uint32_t esp0;          /* top of this task's kernel stack (TSS.esp0) */
	struct fpu fpu;
};
#endif

#endif
