/* arch/i386/ioapic.h - the I/O APIC, and which interrupt controller is in
 * charge of the ISA IRQs: the IOAPIC (with the local APICs) when the
 * firmware lists one, otherwise the two 8259s (pic.c). */
#ifndef ARCH_I386_IOAPIC_H
#define ARCH_I386_IOAPIC_H

#include "lib/types.h"

struct smp_config;

/* Takes over the ISA IRQs: every pin masked and programmed from the
 * table's overrides, both 8259s masked (and the IMCR switched to the APIC
 * when the MP table says there is one). IRQs then go to dest_apic as they
 * are unmasked. Needs the IOAPIC's page mapped (paging_map_mmio). */
void ioapic_init(const struct smp_config *cfg, uint32_t dest_apic);

int ioapic_pin(int irq);            /* its IOAPIC input, or -1 */

/* What trap.c calls, whichever controller is in use:
 * irq_unmask from irq_register, irq_spurious and irq_eoi in handle_irq. */
void irq_unmask(int irq);
bool irq_spurious(int irq);         /* an 8259 spurious IRQ 7/15: no handler */
void irq_eoi(int irq);              /* LAPIC EOI (IOAPIC) or the 8259's */

#endif
