/* arch/i386/lapic.c - the local APIC (lapic.h), xAPIC mode only.
 *
 * Every CPU has one, at the same physical address (0xFEE00000 unless the
 * MADT says otherwise): each CPU's accesses reach its own (SDM Vol. 3A
 * 10.4.1). Registers are 32 bits wide at 16-byte strides and must be
 * accessed with aligned 32-bit loads and stores (SDM 10.4.1, Table 10-1). */
#include "arch/i386/lapic.h"
#include "arch/i386/pit.h"
#include "arch/i386/x86.h"

/* Register offsets (SDM Vol. 3A Table 10-1). */
#define LAPIC_ID        0x020
#define LAPIC_TPR       0x080   /* task priority */
#define LAPIC_EOI       0x0B0
#define LAPIC_SVR       0x0F0   /* spurious interrupt vector */
#define LAPIC_ESR       0x280   /* error status */
#define LAPIC_ICR_LO    0x300   /* interrupt command; writing it sends */
#define LAPIC_ICR_HI    0x310   /* destination in bits 24-31 */
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LAPIC_TIMER_INIT 0x380  /* initial count */
#define LAPIC_TIMER_CUR  0x390  /* current count */
#define LAPIC_TIMER_DIV  0x3E0  /* divide configuration */

#define SVR_ENABLE      0x100   /* APIC software enable (SDM 10.9) */
#define LVT_MASKED      0x10000
#define LVT_NMI         0x400   /* delivery mode NMI */
#define TIMER_PERIODIC  0x20000 /* LVT timer mode bits 17-18 = 01 (SDM 10.5.4) */
#define TIMER_DIV_16    0x3

/* ICR fields (SDM Vol. 3A 10.6.1, Figure 10-12). */
#define ICR_FIXED       0x000
#define ICR_NMI         0x400
#define ICR_INIT        0x500
#define ICR_STARTUP     0x600
#define ICR_PENDING     0x1000  /* delivery status: send pending */
#define ICR_ASSERT      0x4000  /* level: assert (must be 1 but for INIT de-assert) */
#define ICR_ALL_BUT_SELF 0xC0000 /* destination shorthand 11 */
#define ICR_DEST_SHIFT  24

#define MSR_APIC_BASE   0x1B    /* IA32_APIC_BASE (SDM 10.4.4) */
#define APIC_BASE_EXTD  (1u << 10)  /* x2APIC mode */
#define APIC_BASE_EN    (1u << 11)
#define CPUID_1_EDX_APIC (1u << 9)

#define CALIBRATE_US    10000   /* one 10 ms window of PIT channel 2 ... */
#define CALIBRATE_RUNS  3       /* ... a few times, keeping the least */

static volatile uint32_t *lapic;        /* NULL until mapped */
static uint32_t timer_hz;                /* counts a second, divided by 16 */

static inline uint32_t lapic_read(uint32_t reg)
{
	return lapic[reg / 4];
}

static inline void lapic_write(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

static uint64_t rdmsr(uint32_t msr)
{
	uint64_t v;
	__asm__ volatile("rdmsr" : "=A"(v) : "c"(msr));
	return v;
}

bool lapic_usable(void)
{
	uint32_t base;

	if (!(cpuid_1_edx() & CPUID_1_EDX_APIC))
		return false;
	base = (uint32_t)rdmsr(MSR_APIC_BASE);
	return (base & APIC_BASE_EN) && !(base & APIC_BASE_EXTD);
}

void lapic_set_base(uint32_t phys)
{
	lapic = (volatile uint32_t *)phys;      /* mapped at its own address */
}

bool lapic_mapped(void)
{
	return lapic != NULL;
}

uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;      /* xAPIC: bits 24-31 */
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

uint32_t lapic_error(void)
{
	lapic_write(LAPIC_ESR, 0);      /* latch the errors (SDM 10.5.3) */
	return lapic_read(LAPIC_ESR);
}

void lapic_setup(bool boot_cpu, bool mask_lint0)
{
	/* Software-enable it, with 0xFF for spurious interrupts (SDM 10.9:
	 * such an interrupt is not in service, so it gets no EOI). */
	lapic_write(LAPIC_SVR, SVR_ENABLE | T_LAPIC_SPURIOUS);
	/* The 8259s' INTR arrives on LINT0 (ExtINT, the "virtual wire" the
	 * BIOS set up) and NMI on LINT1, on the boot CPU only (MP spec
	 * 3.6.2.2). The APs take neither. */
	if (!boot_cpu || mask_lint0)
		lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, boot_cpu ? LVT_NMI : LVT_MASKED);
	lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_error();                  /* clear what the BIOS left */
	lapic_error();
	lapic_eoi();                    /* and any interrupt in service */
	lapic_write(LAPIC_TPR, 0);      /* accept every priority class */
}

/* One-shot count-down from the top for CALIBRATE_US of PIT time: the
 * counts elapsed. The timer counts the bus clock divided by 16. */
void lapic_timer_calibrate(void)
{
	uint32_t best = UINT32_MAX;

	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	for (int i = 0; i < CALIBRATE_RUNS; i++) {
		lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);   /* one-shot, silent */
		lapic_write(LAPIC_TIMER_INIT, UINT32_MAX);
		pit_wait_us(CALIBRATE_US);
		uint32_t elapsed = UINT32_MAX - lapic_read(LAPIC_TIMER_CUR);
		/* A host that deschedules the emulator can only stretch the
		 * PIT wait, never shorten it: the smallest is the truest. */
		if (elapsed < best)
			best = elapsed;
	}
	lapic_write(LAPIC_TIMER_INIT, 0);               /* stop it */
	uint64_t hz = (uint64_t)best * (1000000 / CALIBRATE_US);
	timer_hz = hz > UINT32_MAX ? UINT32_MAX : (uint32_t)hz;
}

uint32_t lapic_timer_hz(void)
{
	return timer_hz;
}

void lapic_timer_start(unsigned hz)
{
	uint32_t count = timer_hz / hz;

	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, TIMER_PERIODIC | T_LAPIC_TIMER);
	lapic_write(LAPIC_TIMER_INIT, count ? count : 1);  /* writing starts it */
}

/* Sends one interrupt command. The ICR is two registers and the low one
 * sends, so the pair is written with interrupts off (an interrupt handler
 * sending an IPI in between would change the destination). */
static void icr_send(uint32_t apic_id, uint32_t lo)
{
	uint32_t flags = read_eflags();

	cli();
	while (lapic_read(LAPIC_ICR_LO) & ICR_PENDING)
		pause();
	lapic_write(LAPIC_ICR_HI, apic_id << ICR_DEST_SHIFT);
	lapic_write(LAPIC_ICR_LO, lo);
	while (lapic_read(LAPIC_ICR_LO) & ICR_PENDING)
		pause();
	if (flags & EFLAGS_IF)
		sti();
}

void lapic_send_ipi(uint32_t apic_id, int vector)
{
	icr_send(apic_id, ICR_FIXED | ICR_ASSERT | (uint32_t)(vector & 0xff));
}

void lapic_send_nmi(uint32_t apic_id)
{
	icr_send(apic_id, ICR_NMI | ICR_ASSERT);
}

/* INIT puts the target in wait-for-SIPI state (SDM 8.4.1): level assert,
 * edge-triggered, as in SDM 8.4.4.1's example (without the broadcast). */
void lapic_send_init(uint32_t apic_id)
{
	icr_send(apic_id, ICR_INIT | ICR_ASSERT);
}

/* A start-up IPI's vector is the 4 KiB page the AP starts at, in real
 * mode with CS:IP = vector << 8 : 0 (SDM 8.4.4.1, 10.6.1). */
void lapic_send_startup(uint32_t apic_id, uint32_t page_phys)
{
	icr_send(apic_id, ICR_STARTUP | ICR_ASSERT | (page_phys >> 12));
}
