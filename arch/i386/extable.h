/* arch/i386/extable.h - the exception table (as Linux's __ex_table).
 *
 * An instruction that may fault legitimately in kernel mode (a user
 * access, or popping a user segment register whose descriptor went away)
 * gets an entry {insn, fixup}: when it faults, trap() resumes at fixup
 * instead of panicking. Entries are emitted with EXTABLE(insn, fixup) in
 * assembly and collected by linker.ld between __ex_table_start/_end. */
#ifndef ARCH_I386_EXTABLE_H
#define ARCH_I386_EXTABLE_H

#ifdef __ASSEMBLER__
#define EXTABLE(insn, fixup) \
	.pushsection __ex_table, "a"; .align 4; .long insn, fixup; .popsection
#else
#include "lib/types.h"

struct extable_entry {
	uint32_t insn, fixup;
};

/* The fixup address for a faulting eip, or 0. */
uint32_t extable_fixup(uint32_t eip);
#endif

#endif
