/* arch/i386/ioapic.c - the I/O APIC (Intel 82093AA data sheet) and the
 * choice between it and the 8259s.
 *
 * The IOAPIC has input pins ("global system interrupts" from its GSI base
 * up) and one 64-bit redirection entry per pin that says which vector
 * goes to which local APIC. ISA IRQ n is wired to pin n unless the
 * firmware says otherwise: on QEMU and most PCs the PIT's IRQ 0 is pin 2,
 * an "interrupt source override" in the MADT (ACPI 6.4 5.2.12.5), an I/O
 * interrupt entry in the MP table (MP spec 4.3.4). Once the IOAPIC is in
 * use, the 8259s are masked entirely and an interrupt is acknowledged at
 * the local APIC (EOI register), not at the 8259. */
#include "arch/i386/ioapic.h"
#include "arch/i386/acpi.h"
#include "arch/i386/lapic.h"
#include "arch/i386/pic.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/traps.h"
#include "arch/i386/x86.h"

/* Registers: an index at +0x00 and a data window at +0x10. */
#define IOREGSEL        0x00
#define IOWIN           0x10
#define IOAPIC_REG_ID   0x00
#define IOAPIC_REG_VER  0x01    /* bits 16-23: the highest entry's index */
#define IOAPIC_REDTBL(pin) (0x10 + 2 * (pin))   /* low word; +1 high word */

/* Redirection entry, low word (82093AA section 3.2.4). */
#define RTE_POLARITY_LOW 0x2000     /* bit 13 */
#define RTE_LEVEL        0x8000     /* bit 15 */
#define RTE_MASKED       0x10000    /* bit 16 */
#define RTE_DEST_SHIFT   24         /* high word: physical APIC id */

#define PIC1_DATA 0x21
#define PIC2_DATA 0xA1
#define IMCR_SELECT 0x22            /* MP spec 3.6.2.1: the IMCR */
#define IMCR_DATA   0x23
#define IMCR_INDEX  0x70
#define IMCR_APIC   0x01

static volatile uint32_t *ioapic;   /* NULL: the 8259s are in charge */
static int npins;
static int isa_pin[ISA_IRQS];       /* -1: not wired to this IOAPIC */
static uint32_t isa_flags[ISA_IRQS];  /* polarity and trigger bits */
static uint32_t irq_dest;           /* the boot CPU's APIC id */
/* The index/window pair is one shared register: two CPUs must not
 * interleave their accesses. */
static struct spinlock ioapic_lock = SPINLOCK_INIT("ioapic");

static uint32_t ioapic_read(uint32_t reg)
{
	ioapic[IOREGSEL / 4] = reg;
	return ioapic[IOWIN / 4];
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	ioapic[IOREGSEL / 4] = reg;
	ioapic[IOWIN / 4] = v;
}

/* The entry's polarity and trigger from MPS INTI flags; 00 means "as the
 * bus does", which for ISA is active high, edge-triggered. */
static uint32_t rte_mode(uint16_t inti)
{
	uint32_t mode = 0;

	if ((inti & INTI_POLARITY_MASK) == INTI_POLARITY_LOW)
		mode |= RTE_POLARITY_LOW;
	if ((inti & INTI_TRIGGER_MASK) == INTI_TRIGGER_LEVEL)
		mode |= RTE_LEVEL;
	return mode;
}

static void rte_write(int pin, uint32_t lo, uint32_t dest)
{
	/* Masked while the two halves disagree. */
	ioapic_write(IOAPIC_REDTBL(pin), RTE_MASKED);
	ioapic_write(IOAPIC_REDTBL(pin) + 1, dest << RTE_DEST_SHIFT);
	ioapic_write(IOAPIC_REDTBL(pin), lo);
}

void ioapic_init(const struct smp_config *cfg, uint32_t dest_apic)
{
	ioapic = (volatile uint32_t *)cfg->ioapic_phys;  /* identity-mapped */
	npins = (int)((ioapic_read(IOAPIC_REG_VER) >> 16) & 0xff) + 1;
	irq_dest = dest_apic;

	for (int pin = 0; pin < npins; pin++)
		rte_write(pin, RTE_MASKED | (uint32_t)(T_IRQ0 + pin), 0);
	for (int irq = 0; irq < ISA_IRQS; irq++) {
		uint32_t gsi = cfg->isa[irq].gsi;
		/* IRQ 2 is the 8259 cascade: it never interrupts. */
		bool wired = irq != 2 && gsi >= cfg->ioapic_gsi_base &&
			     gsi - cfg->ioapic_gsi_base < (uint32_t)npins;
		isa_pin[irq] = wired ? (int)(gsi - cfg->ioapic_gsi_base) : -1;
		isa_flags[irq] = rte_mode(cfg->isa[irq].flags);
	}

	/* Both 8259s silent (their remapped vectors stay valid, pic_init
	 * ran first); with an IMCR, route INTR to the APIC (MP 3.6.2.1). */
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
	if (cfg->imcr) {
		outb(IMCR_SELECT, IMCR_INDEX);
		outb(IMCR_DATA, IMCR_APIC);
	}
}

int ioapic_pin(int irq)
{
	return ioapic && irq >= 0 && irq < ISA_IRQS ? isa_pin[irq] : -1;
}

/* Points ISA IRQ irq (through its override: IRQ 0 is GSI 2 on QEMU) at
 * vector on the CPU with APIC id dest_apic, and unmasks it. */
static void ioapic_route(int irq, int vector, uint32_t dest_apic)
{
	int pin = ioapic_pin(irq);
	uint32_t flags;

	if (pin < 0)
		return;
	flags = spin_lock_irqsave(&ioapic_lock);
	rte_write(pin, isa_flags[irq] | (uint32_t)(vector & 0xff), dest_apic);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

void irq_unmask(int irq)
{
	if (ioapic)
		ioapic_route(irq, T_IRQ0 + irq, irq_dest);
	else
		pic_unmask(irq);
}

/* Only an 8259 makes spurious IRQs on its own vectors; the local APIC's
 * spurious interrupts come on T_LAPIC_SPURIOUS instead. */
bool irq_spurious(int irq)
{
	return ioapic ? false : pic_spurious(irq);
}

/* Edge-triggered ISA interrupts: the EOI can go first (trap.c does that,
 * because a handler may switch away). */
void irq_eoi(int irq)
{
	if (ioapic)
		lapic_eoi();
	else
		pic_eoi(irq);
}
