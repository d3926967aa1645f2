/* tests/guest/ktest_smp.c - group smp: the CPUs the firmware listed are
 * running, each on its own GDT (seed layout) and TSS, with its own APIC
 * id, a ticking local APIC timer, and IPIs that reach it
 * (arch/i386/smp.c). Groups crash_smp and crash_smp_nmi: a panic stops
 * every other CPU, by IPI, or by NMI when one has interrupts off.
 *
 * The harness says how many CPUs QEMU was given with `expect_cpus=N` on
 * the command line; without it the count is checked against what the
 * firmware listed. Every wait is bounded (see ktest_timer.c's rules). */
#include "tests/guest/ktest.h"
#include "kernel/bootinfo.h"
#include "compat/linux/cputime.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "arch/i386/cpu.h"
#include "arch/i386/ioapic.h"
#include "arch/i386/lapic.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/process.h"
#include "arch/i386/smp.h"
#include "arch/i386/timer.h"
#include "arch/i386/x86.h"
#include "lib/string.h"

#define NS_PER_MS 1000000ull

/* The ticks CPU c has taken: what /proc/stat counts for it, one a tick
 * whatever ran (compat/linux/cputime.c, from timer_interrupt), in units
 * of USER_HZ, which is HZ (100) in Spindle as in Linux i386. */
static uint32_t cpu_ticks(int c)
{
	return (uint32_t)(cputime_cpu_usage(c, CPU_USER) + cputime_cpu_usage(c, CPU_SYSTEM) +
			  cputime_cpu_usage(c, CPU_IDLE));
}

/* The number after `word=` in the raw command line, or -1. */
static int cmdline_number(const char *word)
{
	const char *s = bootinfo.raw_cmdline;

	for (; *s; s++) {
		const char *w = word, *p = s;
		if (s != bootinfo.raw_cmdline && s[-1] != ' ')
			continue;
		while (*w && *p == *w)
			w++, p++;
		if (*w)
			continue;
		int n = 0;
		if (*p < '0' || *p > '9')
			return -1;
		while (*p >= '0' && *p <= '9')
			n = n * 10 + (*p++ - '0');
		return n;
	}
	return -1;
}

static int min(int a, int b)
{
	return a < b ? a : b;
}

/* Waits until clock_ticks() reaches target: true, or false after 5 s
 * of TSC time. */
static bool wait_ticks(uint64_t target)
{
	uint64_t end = clock_ns() + 5000 * NS_PER_MS;

	while (clock_ticks() < target && clock_ns() < end)
		pause();
	return clock_ticks() >= target;
}

/* A descriptor as one 64-bit word without the Accessed bit. */
static uint64_t desc_word(const struct desc *d)
{
	return ((uint64_t)(d->b & ~(1u << DESC_B_TYPE_SHIFT)) << 32) | d->a;
}

KTEST(smp, ncpus_is_what_qemu_was_given)
{
	int want = cmdline_number("expect_cpus=");

	if (want < 0)
		want = smp_cpus_listed;
	if (bootinfo.cmdline.smp > 0)
		want = min(want, bootinfo.cmdline.smp);
	KCHECK_EQ(ncpus, min(want, NR_CPUS));
}

KTEST(smp, cpus_numbered_from_zero)
{
	for (int i = 0; i < NR_CPUS; i++) {
		KCHECK_EQ(cpus[i].started, i < ncpus);
		if (i < ncpus)
			KCHECK_EQ(cpus[i].id, i);
	}
	KCHECK(this_cpu() == &cpus[0]);         /* ktests run on the boot CPU */
}

KTEST(smp, apic_ids_distinct)
{
	if (lapic_mapped())
		KCHECK_EQ(cpus[0].apic_id, lapic_id());
	for (int i = 0; i < ncpus; i++)
		for (int j = i + 1; j < ncpus; j++)
			KCHECK(cpus[i].apic_id != cpus[j].apic_id);
}

/* Each AP loaded its own table: what sgdt said on that CPU. */
KTEST(smp, each_cpu_loaded_its_own_gdt)
{
	for (int i = 1; i < ncpus; i++) {
		const struct ap_report *r = &smp_ap_reports[i];
		KCHECK_EQ(r->gdt_base, (uint32_t)cpus[i].gdt);
		KCHECK_EQ(r->gdt_limit, GDT_SIZE - 1);
		for (int j = 0; j < i; j++)
			KCHECK(cpus[i].gdt != cpus[j].gdt);
	}
}

KTEST(smp, each_gdt_has_the_seed_layout)
{
	for (int c = 0; c < ncpus; c++) {
		const struct desc *g = gdt_for_cpu(c);
		KCHECK_EQ(desc_word(&g[0]), 0);
		KCHECK_EQ(desc_word(&g[4]), 0x00cffa000000ffffull);
		KCHECK_EQ(desc_word(&g[5]), 0x00cff2000000ffffull);
		KCHECK_EQ(desc_word(&g[12]), 0x00cf9a000000ffffull);
		KCHECK_EQ(desc_word(&g[13]), 0x00cf92000000ffffull);
		for (int i = 1; i <= 3; i++)
			KCHECK(desc_empty(&g[i]));
		/* Only idle tasks have run on the APs: TLS empty. */
		for (int i = GDT_ENTRY_TLS_MIN; i <= 11; i++)
			KCHECK(desc_empty(&g[i]));
		KCHECK(desc_empty(&g[GDT_ENTRY_LDT]));
		for (int i = 16; i < GDT_ENTRY_DOUBLEFAULT_TSS; i++)
			KCHECK(desc_empty(&g[i]));
	}
}

/* ltr marks the TSS descriptor busy (SDM Vol. 3A 7.2.2), and the AP's
 * task register named entry 14. */
KTEST(smp, each_tss_loaded)
{
	for (int c = 0; c < ncpus; c++) {
		const struct desc *t = &gdt_for_cpu(c)[GDT_ENTRY_TSS];
		KCHECK_EQ((t->b >> 8) & 0xf, DESC_TYPE_TSS32_BUSY);
		KCHECK_EQ(desc_base(t), (uint32_t)&cpus[c].tss);
		KCHECK_EQ(desc_limit(t), sizeof(struct tss) - 1);
		KCHECK_EQ(cpus[c].tss.ss0, __KERNEL_DS);
		if (c > 0)
			KCHECK_EQ(smp_ap_reports[c].tr, GDT_ENTRY_TSS * 8);
	}
}

KTEST(smp, aps_run_like_the_boot_cpu)
{
	for (int c = 1; c < ncpus; c++) {
		const struct ap_report *r = &smp_ap_reports[c];
		KCHECK_EQ(r->cs, __KERNEL_CS);
		KCHECK_EQ(r->ds, __KERNEL_DS);
		KCHECK_EQ(r->ss, __KERNEL_DS);
		KCHECK_EQ(r->cr0, read_cr0());
		KCHECK_EQ(r->cr4, read_cr4());
		KCHECK_EQ(r->cr3, V2P(kernel_pgdir));
	}
}

/* abi.md section 10: every CPU, the boot CPU and each AP, lets ring 3
 * use the x87 and SSE (arch/i386/fpu.c fpu_init_cpu): CR0.MP and NE set,
 * EM clear, TS set (no task's state is loaded while the kernel runs a
 * test), CR4.OSFXSR and OSXMMEXCPT set when CPUID reports FXSR and SSE. */
static void check_fpu_bits(uint32_t cr0, uint32_t cr4, uint32_t edx)
{
	KCHECK_EQ(cr0 & (CR0_MP | CR0_NE | CR0_EM | CR0_TS), CR0_MP | CR0_NE | CR0_TS);
	KCHECK_EQ(!!(cr4 & CR4_OSFXSR), !!(edx & (1u << 24)));
	KCHECK_EQ(!!(cr4 & CR4_OSXMMEXCPT), !!(edx & (1u << 25)));
}

KTEST(smp, fpu_enabled_on_every_cpu)
{
	uint32_t a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	KCHECK(d & 1);                          /* QEMU's CPUs have an FPU */
	check_fpu_bits(read_cr0(), read_cr4(), d);
	for (int i = 1; i < ncpus; i++)
		check_fpu_bits(smp_ap_reports[i].cr0, smp_ap_reports[i].cr4, d);
}

/* The APIC registers: one uncached 4 MiB page at their own address. */
KTEST(smp, apic_registers_mapped_uncached)
{
	uint32_t pde;

	if (!lapic_mapped())
		return;                 /* no APIC: nothing to map */
	pde = kernel_pgdir[LAPIC_DEFAULT_PHYS >> PGDIR_SHIFT];
	KCHECK(pde & PTE_P);
	KCHECK(pde & PTE_PS);
	KCHECK_EQ(pde & (PTE_PCD | PTE_PWT), PTE_PCD | PTE_PWT);
	KCHECK_EQ(pde & ~0x3fffffu, LAPIC_DEFAULT_PHYS & ~0x3fffffu);
	KCHECK(!(pde & PTE_U));
}

/* ISA interrupts reach the boot CPU through the IOAPIC (the PIT's IRQ 0
 * is pin 2 on QEMU), and the 8259s are silent. The boot CPU ticks from
 * its local APIC timer, as every CPU does (arch/i386/timer.h), and its
 * ticks are the ones counted. */
KTEST(smp, ioapic_routes_and_the_boot_cpu_ticks_from_its_lapic)
{
	/* The CPU's count first: a tick between the two reads then raises
	 * t0, never n0 alone (timer_interrupt counts the CPU's tick before
	 * clock_tick counts the clock's). */
	uint32_t n0 = cpu_ticks(0);
	uint64_t t0 = clock_ticks();

	if (ioapic_pin(0) < 0)
		return;         /* no IOAPIC (ioapic_pin is -1 for every IRQ) */
	KCHECK_EQ(inb(0x21), 0xff);
	KCHECK_EQ(inb(0xA1), 0xff);
	KCHECK(strcmp(timer_source(), "LAPIC") == 0);
	KCHECK(wait_ticks(t0 + 2));
	KCHECK(cpu_ticks(0) - n0 >= 2);
}

/* Each AP's timer runs at about HZ: measured against the boot CPU's
 * ticks (its own local APIC timer), not the TSC, because QEMU fires the
 * timers from the same host thread. A busy host still delays an AP's vCPU thread and merges the
 * ticks it missed meanwhile, so: every AP must tick 5 times within at most
 * 500 boot-CPU ticks (5 s; 5 boot-CPU ticks on an idle host), and never faster than
 * 3 ticks per boot-CPU tick (a timer programmed far too fast). */
KTEST(smp, each_ap_timer_ticks)
{
	uint32_t before[NR_CPUS], n = 0;
	uint64_t t0 = clock_ticks(), elapsed = 0;
	int c;

	for (c = 1; c < ncpus; c++)
		before[c] = cpu_ticks(c);
	for (c = 1; c < ncpus; c++) {
		while ((n = cpu_ticks(c) - before[c]) < 5 && clock_ticks() - t0 < 500)
			pause();
		if (n < 5)
			break;
	}
	elapsed = clock_ticks() - t0;
	if (c < ncpus)
		ktest_fail(__FILE__, __LINE__, "cpu%d: %u LAPIC ticks in %u boot-CPU ticks", c, n,
			   (unsigned)elapsed);
	for (c = 1; c < ncpus; c++) {
		n = cpu_ticks(c) - before[c];
		if (n > 3 * (elapsed + 1) + 5)
			ktest_fail(__FILE__, __LINE__, "cpu%d: %u LAPIC ticks in %u boot-CPU ticks: "
				   "too fast", c, n, (unsigned)(clock_ticks() - t0));
	}
}

/* An IPI reaches each AP: T_LAPIC_TIMER sent by hand counts as a tick.
 * Each of 20 is waited for; without IPIs each wait would end only at the
 * AP's next periodic tick, so the AP's count would grow no faster than
 * the boot CPU's count. With them it grows by 20 more. */
KTEST(smp, ipi_reaches_each_ap)
{
	for (int c = 1; c < ncpus; c++) {
		uint32_t n0 = cpu_ticks(c);
		uint64_t t0 = clock_ticks();
		for (int i = 0; i < 20; i++) {
			uint32_t n = cpu_ticks(c);
			uint64_t end = clock_ns() + 1000 * NS_PER_MS;
			smp_send_ipi(c, T_LAPIC_TIMER);
			while (cpu_ticks(c) == n && clock_ns() < end)
				pause();
			KCHECK(cpu_ticks(c) != n);
		}
		uint32_t gained = cpu_ticks(c) - n0;
		uint64_t periodic = clock_ticks() - t0;
		if (gained < periodic + 10)
			ktest_fail(__FILE__, __LINE__, "cpu%d: %u ticks in %llu boot-CPU ticks",
				   c, gained, (unsigned long long)periodic);
	}
}

/* A panic on one CPU stops the others: each prints "cpuN stopped: ..."
 * after the backtrace, then the machine powers off (status 0x7f). */
KTEST(crash_smp, panic_stops_every_cpu)
{
	panic("deliberate panic with %d CPUs running", ncpus);
}

static volatile int spinner_running;

static void spin_with_interrupts_off(void *arg)
{
	(void)arg;
	if (current_thread_info()->cpu == 0)
		return;                 /* the test itself runs on cpu0 */
	cli();
	spinner_running = 1;
	for (;;)
		pause();
}

/* A kernel thread running spin_with_interrupts_off, queued with cpu as a
 * hint (the scheduler may place a new task elsewhere). */
static bool start_spinner(int cpu)
{
	struct task *t = task_alloc();

	if (!t)
		return false;
	strlcpy(t->comm, "spinner", sizeof(t->comm));
	t->exit_signal = -1;
	if (task_hash(t) < 0) {
		task_free(t);
		return false;
	}
	t->tgid = t->tid;
	t->cpu = cpu;
	copy_kthread(t, spin_with_interrupts_off, NULL);
	sched_add(t);
	return true;
}

/* An AP spins with interrupts off, so only an NMI reaches it: its
 * "stopped" line must still come, with eip in spin_with_interrupts_off.
 * A spinner that lands on cpu0's queue never runs (this test does not
 * yield), so the next one goes to a less loaded CPU. */
KTEST(crash_smp_nmi, panic_stops_a_cpu_with_interrupts_off)
{
	for (int i = 0; ncpus > 1 && i < ncpus && !spinner_running; i++) {
		if (!start_spinner(ncpus - 1))
			break;
		for (uint64_t end = clock_ns() + 500 * NS_PER_MS;
		     !spinner_running && clock_ns() < end; )
			pause();
	}
	panic("deliberate panic with %d CPUs, a spinner with interrupts off: %s",
	      ncpus, spinner_running ? "running" : "none");
}
