/* kernel/banner.c - the boot banner (its GDT dump is arch's gdt_print).
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
#include "arch/i386/smp.h"
#include "arch/i386/timer.h"

extern char _text[], _end[];

void banner_print(void)
{
	uint32_t free_kb = pmm_free_frames() * 4;
	uint64_t mhz = clock_tsc_hz() / 1000000;

	kprintf("Spindle %s booting (i386, loader: %s)\n", SPINDLE_VERSION,
		bootinfo.loader[0] ? bootinfo.loader : "unnamed");
	kprintf("cmdline: %s\n", bootinfo.raw_cmdline);
	kprintf("memory: %u MiB mapped at %#x, %u KiB free, kernel %p-%p\n",
		pmm_ram_top() >> 20, KERNBASE, free_kb, (void *)_text, (void *)_end);
	kprintf("clock: %s %d Hz, TSC %llu MHz\n", timer_source(), HZ, (unsigned long long)mhz);
	kprintf("cpus: %d running (cpu0 is the boot CPU)\n", ncpus);
	smp_print_cpus();
	gdt_print(0);
	kprintf("initrd: %d files\n", initrd_count());
}
