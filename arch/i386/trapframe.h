/* arch/i386/trapframe.h - what trap entry leaves on the kernel stack.
 *
 * Read bottom-up, it is the order things are pushed: the CPU pushes
 * eflags/cs/eip (and ss/esp when coming from ring 3: SDM Vol. 3A 6.12.1,
 * Figure 6-4), the vector stub pushes an error code (0 where the CPU does
 * not) and the vector number, then trap_entry (vectors.S) pushes the four
 * data segment registers and pushal the eight general registers. For
 * int $0x80, syscall_entry pushes the call's number as err (Linux's
 * orig_eax: syscall_restart.h); rt_sigreturn makes it -1.
 *
 * The TF_* byte offsets are what vectors.S uses; the _Static_asserts below
 * keep them and the struct in step. Only #defines above __ASSEMBLER__. */
#ifndef ARCH_I386_TRAPFRAME_H
#define ARCH_I386_TRAPFRAME_H

#define TF_EDI     0
#define TF_ESI     4
#define TF_EBP     8
#define TF_ESP0   12     /* pushal's copy of %esp: ignored by popal */
#define TF_EBX    16
#define TF_EDX    20
#define TF_ECX    24
#define TF_EAX    28
#define TF_GS     32
#define TF_FS     36
#define TF_ES     40
#define TF_DS     44
#define TF_TRAPNO 48
#define TF_ERR    52
#define TF_EIP    56
#define TF_CS     60
#define TF_EFLAGS 64
#define TF_ESP    68     /* only when the trap came from ring 3 */
#define TF_SS     72
#define TF_SIZE   76

#ifndef __ASSEMBLER__
#include "lib/types.h"

struct trapframe {
	/* pushal */
	uint32_t edi, esi, ebp, esp0, ebx, edx, ecx, eax;
	/* trap_entry pushes these as 32-bit words */
	uint32_t gs, fs, es, ds;
	/* the vector stub */
	uint32_t trapno, err;
	/* the CPU */
	uint32_t eip, cs, eflags;
	uint32_t esp, ss;       /* ring 3 -> 0 only */
};

#define TF_CHECK(field, off) \
	_Static_assert(__builtin_offsetof(struct trapframe, field) == off, \
		       "trapframe." #field " must be at " #off " (vectors.S)")
TF_CHECK(edi, TF_EDI);   TF_CHECK(esi, TF_ESI);   TF_CHECK(ebp, TF_EBP);
TF_CHECK(esp0, TF_ESP0); TF_CHECK(ebx, TF_EBX);   TF_CHECK(edx, TF_EDX);
TF_CHECK(ecx, TF_ECX);   TF_CHECK(eax, TF_EAX);   TF_CHECK(gs, TF_GS);
TF_CHECK(fs, TF_FS);     TF_CHECK(es, TF_ES);     TF_CHECK(ds, TF_DS);
TF_CHECK(trapno, TF_TRAPNO); TF_CHECK(err, TF_ERR); TF_CHECK(eip, TF_EIP);
TF_CHECK(cs, TF_CS);     TF_CHECK(eflags, TF_EFLAGS);
TF_CHECK(esp, TF_ESP);   TF_CHECK(ss, TF_SS);
_Static_assert(sizeof(struct trapframe) == TF_SIZE, "trapframe size (vectors.S)");
#undef TF_CHECK

static inline bool tf_from_user(const struct trapframe *tf)
{
	return (tf->cs & 3) == 3;
}
#endif

#endif
