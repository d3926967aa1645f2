/* kernel/main.c - kmain: the boot CPU's path from the loader to work.
 *
 * boot/entry.S calls kmain(magic, mbi) on the boot CPU's kernel stack with
 * the boot page directory loaded and interrupts off. The order below is
 * forced by what each step needs: the console to report anything, the
 * GDT before any trap can be taken, the loader's data copied before the
 * memory holding it can be reused, the page directory and frame pool
 * before any allocation, the IDT before interrupts. */
#include "kernel/banner.h"
#include "kernel/bootinfo.h"
#include "kernel/clock.h"
#include "kernel/console.h"
#include "kernel/initrd.h"
#include "kernel/linux_hooks.h"
#include "kernel/monitor.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"
#include "kernel/sched.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "arch/i386/cpu.h"
#include "arch/i386/fpu.h"
#include "arch/i386/kstack.h"
#include "arch/i386/paging.h"
#include "kernel/trace.h"
#include "arch/i386/smp.h"
#include "arch/i386/traps.h"
#include "arch/i386/umip.h"
#include "arch/i386/irqflags.h"

void init_start(void);          /* kernel/init.c */
void time_init(void);           /* kernel/time.c */
void futex_init(void);          /* kernel/futex.c */
/* The in-kernel tests' runner (tests/guest/ktest.c) is linked into the
 * test image alone (build/kernel-test.elf, which make check boots for
 * ktest=GROUP): a weak reference, NULL in the kernels of make run and
 * make seed, which carry no test code. */
void ktest_run(const char *group) __attribute__((weak, noreturn));

static void warn_unknown_words(void)
{
	const struct cmdline *c = &bootinfo.cmdline;

	for (int i = 0; i < c->nunknown; i++)
		kprintf("cmdline: unknown word '%s' ignored\n", c->unknown[i]);
	if (c->truncated)
		kprintf("cmdline: too long, truncated\n");
}

/* Is there an init program to run? Looked up where execve will look:
 * the layer's RAM file system, or the seed kernel's initrd table. */
static bool program_exists(const char *path)
{
	return linux_layer_present() ? linux_is_file(path) : initrd_find(path) != NULL;
}

void kmain(uint32_t magic, uint32_t mbi_phys)
{
	struct thread_info *ti = current_thread_info();

	ti->cpu = 0;
	ti->magic = THREAD_INFO_MAGIC;
	console_init();
	cpus[0].id = 0;
	cpus[0].started = true;
	gdt_init_cpu(&cpus[0]);
	fpu_init_cpu();         /* CR0/CR4: before any task can run */
	idt_init();
	idt_load();

	bootinfo_init(magic, mbi_phys);
	pmm_init();
	paging_init(pmm_ram_top());
	kstack_area_init(pmm_ram_top());        /* before any page directory copies */
	umip_init();            /* before the APs copy CR4 */
	kmem_init();
	fpu_init(bootinfo.cmdline.fpu_lazy);
	vm_init();
	initrd_init();
	task_init();
	sighand_init();
	sched_init();
	syscall_init();
	futex_init();
	trace_init(bootinfo.cmdline.trace);     /* before the APs can record */

	smp_init();             /* 8259s, APIC MMIO, IOAPIC routing: before any IRQ is unmasked */
	clock_init();
	time_init();
	linux_fs_init();        /* the layer's RAM file system, the initrd in it */
	console_enable_input();
	local_irq_enable();
	smp_boot_aps();

	banner_print();
	warn_unknown_words();

	if (bootinfo.cmdline.ktest && ktest_run)
		ktest_run(bootinfo.cmdline.ktest);
	if (bootinfo.cmdline.ktest)
		kprintf("ktest=%s: this kernel has no tests (make check boots build/kernel-test.elf)\n",
			bootinfo.cmdline.ktest);
	if (bootinfo.cmdline.monitor || !program_exists(bootinfo.cmdline.init)) {
		if (!bootinfo.cmdline.monitor)
			kprintf("no %s in the initrd: starting the kernel monitor\n",
				bootinfo.cmdline.init);
		monitor_run();
	}
	init_start();
	/* kmain's thread is now cpu0's idle task. */
	cpu_idle();
}
