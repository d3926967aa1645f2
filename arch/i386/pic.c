/* arch/i386/pic.c - the two cascaded 8259A interrupt controllers.
 *
 * The BIOS leaves IRQ 0-7 on vectors 8-15, on top of CPU exceptions, so
 * they are remapped to T_IRQ0 (32) and up with the ICW1-ICW4 sequence from
 * the 8259A data sheet. The slave hangs off the master's IRQ 2. */
#include "arch/i386/pic.h"
#include "arch/i386/traps.h"
#include "arch/i386/x86.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1

#define ICW1_INIT_ICW4 0x11   /* edge triggered, cascade, ICW4 follows */
#define ICW4_8086      0x01
#define OCW2_EOI       0x20
#define OCW3_READ_ISR  0x0B

static uint16_t irq_mask = 0xffff & ~(1u << 2);   /* cascade line open */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

void pic_init(void)
{
	outb(PIC1_CMD, ICW1_INIT_ICW4);
	outb(PIC2_CMD, ICW1_INIT_ICW4);
	outb(PIC1_DATA, T_IRQ0);        /* ICW2: vector base */
	outb(PIC2_DATA, T_IRQ0 + 8);
	outb(PIC1_DATA, 1 << 2);        /* ICW3: slave on IRQ 2 */
	outb(PIC2_DATA, 2);             /* ICW3: slave id */
	outb(PIC1_DATA, ICW4_8086);
	outb(PIC2_DATA, ICW4_8086);
	pic_write_mask();
}

void pic_unmask(int irq)
{
	irq_mask &= (uint16_t)~(1u << irq);
	pic_write_mask();
}

void pic_eoi(int irq)
{
	if (irq >= 8)
		outb(PIC2_CMD, OCW2_EOI);
	outb(PIC1_CMD, OCW2_EOI);
}

/* A spurious IRQ 7 (or 15) arrives when a request went away before the
 * acknowledge; its in-service bit is clear and it must not get an EOI from
 * its own PIC (8259A data sheet; the slave's still needs the master's EOI). */
bool pic_spurious(int irq)
{
	if (irq == 7) {
		outb(PIC1_CMD, OCW3_READ_ISR);
		return !(inb(PIC1_CMD) & 0x80);
	}
	if (irq == 15) {
		outb(PIC2_CMD, OCW3_READ_ISR);
		if (!(inb(PIC2_CMD) & 0x80)) {
			outb(PIC1_CMD, OCW2_EOI);
			return true;
		}
	}
	return false;
}
