/* arch/i386/gdt.c - the per-CPU GDT and TSS (tls-2.5.31-D9).
 *
 * Each CPU gets its own table in the seed's 24-entry layout (segment.h).
 * Only the boot CPU runs until SMP, but every table is built here, per CPU,
 * the same way: the seed's cpu_init copied CPU 0's table, and its erratum 3
 * (copying GDT_ENTRY_TLS_MAX*8 bytes into a 24-byte array) is why the TLS
 * slots here are simply left empty instead of being copied anywhere. */
#include "arch/i386/cpu.h"
#include "arch/i386/doublefault.h"
#include "arch/i386/x86.h"
#include "kernel/printf.h"
#include "lib/string.h"

struct cpu cpus[NR_CPUS];
int ncpus = 1;

struct desc *gdt_for_cpu(int cpu)
{
	return cpus[cpu].gdt;
}

/* Builds and loads CPU c's GDT and TSS; call on that CPU, on its boot
 * stack. The TLS entries 6..8 start empty: the first switch_to copies the
 * running task's three descriptors in (load_TLS). */
void gdt_init_cpu(struct cpu *c)
{
	struct desc *g = c->gdt;

	memset(g, 0, sizeof(c->gdt));
	g[GDT_ENTRY_DEFAULT_USER_CS] = desc_flat(1, 3);
	g[GDT_ENTRY_DEFAULT_USER_DS] = desc_flat(0, 3);
	g[GDT_ENTRY_KERNEL_CS] = desc_flat(1, 0);
	g[GDT_ENTRY_KERNEL_DS] = desc_flat(0, 0);

	memset(&c->tss, 0, sizeof(c->tss));
	c->tss.ss0 = __KERNEL_DS;
	c->tss.esp0 = (uint32_t)current_thread_info() + KSTACK_SIZE;
	c->tss.iomap_base = sizeof(c->tss);    /* no I/O bitmap: ring 3 gets #GP */
	g[GDT_ENTRY_TSS] = desc_system((uint32_t)&c->tss, sizeof(c->tss) - 1,
				       DESC_TYPE_TSS32);
	doublefault_init_cpu(c);                /* entry 23: idt.c's vector 8 */

	/* Erratum 4: the limit is the size minus one (lgdt does the -1). */
	lgdt(g, GDT_SIZE);

	/* Reload every segment register so none caches the loader's GDT
	 * (SDM Vol. 3A 3.4.3: the hidden part is loaded only by a mov). */
	__asm__ volatile(
		"ljmp %[kcs], $1f\n"
		"1:\n\t"
		"movw %w[kds], %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"xorl %%eax, %%eax\n\t"
		"movw %%ax, %%fs\n\t"
		"movw %%ax, %%gs\n\t"
		: : [kcs] "i"(__KERNEL_CS), [kds] "r"(__KERNEL_DS) : "eax", "memory");

	ltr(GDT_ENTRY_TSS * 8);
	lldt(0);                                /* no LDT until modify_ldt */
}

static const char *const gdt_names[GDT_ENTRIES] = {
	[0] = "null",
	[GDT_ENTRY_DEFAULT_USER_CS] = "user code   __USER_CS",
	[GDT_ENTRY_DEFAULT_USER_DS] = "user data   __USER_DS",
	[GDT_ENTRY_TLS_MIN] = "TLS #1      (glibc)",
	[GDT_ENTRY_TLS_MIN + 1] = "TLS #2      (Wine)",
	[GDT_ENTRY_TLS_MAX] = "TLS #3",
	[GDT_ENTRY_KERNEL_CS] = "kernel code __KERNEL_CS",
	[GDT_ENTRY_KERNEL_DS] = "kernel data __KERNEL_DS",
	[GDT_ENTRY_TSS] = "TSS",
	[GDT_ENTRY_LDT] = "LDT",
	[GDT_ENTRY_DOUBLEFAULT_TSS] = "TSS         (double fault)",
};

void gdt_print(int cpu)
{
	const struct desc *g = gdt_for_cpu(cpu);

	kprintf("cpu%d GDT at %p, %d entries (tls-2.5.31-D9 layout):\n",
		cpu, (const void *)g, GDT_ENTRIES);
	for (int i = 0; i < GDT_ENTRIES; i++) {
		if (!gdt_names[i] && desc_empty(&g[i]))
			continue;
		kprintf("  %2d sel 0x%02x  %08x%08x  %s\n", i, i * 8 | (i >= 4 && i <= 11 ? 3 : 0),
			g[i].b, g[i].a, gdt_names[i] ? gdt_names[i] : "?");
	}
}
