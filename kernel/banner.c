/* kernel/banner.c - the boot banner and the GDT dump.
 *
 * The banner line "Spindle <version> booting" is what tests/run.py looks
 * for: seeing it twice in one boot means the machine reset (a triple
 * fault). */
#include "kernel/banner.h"
#include "kernel/bootinfo.h"
#include "kernel/clock.h"
#include "kernel/initrd.h"
#include "kernel/printf.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/cpu.h"
#include "arch/i386/x86.h"
#include "arch/i386/smp.h"

extern char _text[], _end[];

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

void banner_print(void)
{
	uint32_t free_kb = pmm_free_frames() * 4;
	uint64_t mhz = clock_tsc_hz() / 1000000;

	kprintf("Spindle %s booting (i386, loader: %s)\n", SPINDLE_VERSION,
		bootinfo.loader[0] ? bootinfo.loader : "unnamed");
	kprintf("cmdline: %s\n", bootinfo.raw_cmdline);
	kprintf("memory: %u MiB mapped at %#x, %u KiB free, kernel %p-%p\n",
		pmm_ram_top() >> 20, KERNBASE, free_kb, (void *)_text, (void *)_end);
	kprintf("clock: PIT %d Hz, TSC %llu MHz\n", HZ, (unsigned long long)mhz);
	kprintf("cpus: %d running (cpu0 is the boot CPU)\n", ncpus);
	smp_print_cpus();
	gdt_print(0);
	kprintf("initrd: %d files\n", initrd_count());
}
