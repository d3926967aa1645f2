/* arch/i386/irqflags.h - this CPU's interrupt flag, as Linux's
 * asm/irqflags.h: the only way kernel/ turns interrupts off and on.
 *
 * What it hides: EFLAGS.IF (bit 9) and the cli/sti/hlt/pause
 * instructions (SDM Vol. 3A 6.8.1, Vol. 2B CLI/STI/HLT/PAUSE). A saved
 * `flags` word is opaque to the caller: give it back to
 * local_irq_restore, never test its bits. */
#ifndef ARCH_I386_IRQFLAGS_H
#define ARCH_I386_IRQFLAGS_H

#include "lib/types.h"
#include "arch/i386/x86.h"

/* Interrupts off on this CPU (cli): nothing else runs here until
 * local_irq_enable or a local_irq_restore that turns them back on. */
static inline void local_irq_disable(void) { cli(); }

/* Interrupts on on this CPU (sti). The CPU takes a pending interrupt
 * only after the next instruction (SDM Vol. 2B, STI). */
static inline void local_irq_enable(void) { sti(); }

/* Interrupts off, returning whether they were on (the whole EFLAGS word,
 * opaque): for code that may be called either way. */
static inline uint32_t arch_local_irq_save(void)
{
	uint32_t flags = read_eflags();

	cli();
	return flags;
}
#define local_irq_save(flags) ((flags) = arch_local_irq_save())

/* Back to the state local_irq_save found: on again only if they were on,
 * so nested save/restore pairs work. */
static inline void local_irq_restore(uint32_t flags)
{
	if (flags & EFLAGS_IF)
		sti();
}

/* Are interrupts off on this CPU? For assertions: code that touches
 * per-CPU data an interrupt handler also touches needs them off. */
static inline bool irqs_disabled(void)
{
	return !(read_eflags() & EFLAGS_IF);
}

/* Enable interrupts and wait for one, atomically ("sti; hlt": sti takes
 * effect after the next instruction, so no interrupt can slip in between
 * the check that there is no work and the halt, and be missed). Returns
 * with interrupts on. Linux's safe_halt. */
static inline void safe_halt(void) { sti_hlt(); }

/* Wait for an interrupt as they are (hlt): with interrupts off, for
 * ever. panic's last loop. */
static inline void halt(void) { hlt(); }

/* The body of a spin-wait loop (pause: tells the CPU, and QEMU's TCG,
 * that this is a busy wait, SDM Vol. 2B PAUSE). Linux's cpu_relax. */
static inline void cpu_relax(void) { pause(); }

#endif
