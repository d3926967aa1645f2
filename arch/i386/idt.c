/* arch/i386/idt.c - the interrupt descriptor table.
 *
 * One table for all CPUs (only the GDT is per CPU). Every vector but the
 * double fault's (a task gate: doublefault.h) gets an interrupt gate (interrupts off on entry, SDM Vol. 3A 6.12.1.3) to its
 * stub in vectors.S. Only the vectors Linux lets ring 3 raise with a
 * software interrupt have DPL 3 (SDM 6.12.1.1; Linux's idt.c SYSG): int
 * $0x80, int3 (#BP) and into (#OF: SIGSEGV, after the instruction, which
 * Linux's selftests/x86/mov_ss_trap.c checks). Any other `int n` is #GP. */
#include "arch/i386/traps.h"
#include "arch/i386/segment.h"
#include "arch/i386/x86.h"
#include "lib/types.h"

struct gate {
	uint16_t off_lo;
	uint16_t sel;
	uint8_t zero;
	uint8_t type_attr;      /* P | DPL | 0 | type (0xE = 32-bit interrupt gate) */
	uint16_t off_hi;
} __attribute__((packed));
_Static_assert(sizeof(struct gate) == 8, "SDM 6.11: a gate is 8 bytes");

#define GATE_INTR32 0xE
#define GATE_TASK   0x5
#define GATE_P      0x80

static struct gate idt[IDT_ENTRIES];
extern const uint32_t vector_table[IDT_ENTRIES];
void syscall_entry(void);               /* vectors.S */

static void set_gate(int vec, uint32_t handler, int dpl)
{
	idt[vec].off_lo = handler & 0xffff;
	idt[vec].sel = __KERNEL_CS;
	idt[vec].zero = 0;
	idt[vec].type_attr = GATE_P | (uint8_t)(dpl << 5) | GATE_INTR32;
	idt[vec].off_hi = handler >> 16;
}

void idt_init(void)
{
	/* DPL 3 for int3 and into, the exceptions ring 3 may raise. */
	for (int v = 0; v < IDT_ENTRIES; v++)
		set_gate(v, vector_table[v], v == T_BRKPT || v == T_OFLOW ? 3 : 0);
	set_gate(T_SYSCALL, (uint32_t)syscall_entry, 3);  /* its own entry */
	/* A double fault switches task: a kernel stack that overflowed
	 * into its guard page cannot take the fault's frame
	 * (doublefault.h). A task gate's offset is unused (SDM 6.11). */
	idt[T_DBLFLT].off_lo = idt[T_DBLFLT].off_hi = 0;
	idt[T_DBLFLT].sel = GDT_ENTRY_DOUBLEFAULT_TSS * 8;
	idt[T_DBLFLT].type_attr = GATE_P | GATE_TASK;
}

void idt_load(void)
{
	lidt(idt, sizeof(idt));
}
