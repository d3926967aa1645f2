/* arch/i386/smp.c - CPU discovery, AP start-up, and stopping every CPU
 * on a panic (smp.h).
 *
 * CPU numbering: cpus[0] is the boot CPU; the APs the firmware lists get
 * cpus[1], cpus[2], ... in table order, as each one comes up, so the
 * running CPUs are always cpus[0 .. ncpus-1]. An AP that does not answer
 * is sent back to wait-for-SIPI with an INIT and its index goes to the
 * next one. smp=N on the command line caps the count, the boot CPU
 * included; NR_CPUS caps it too. */
#include "arch/i386/smp.h"
#include "arch/i386/acpi.h"
#include "arch/i386/cpu.h"
#include "arch/i386/fpu.h"
#include "arch/i386/ioapic.h"
#include "arch/i386/lapic.h"
#include "arch/i386/mmio.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/pic.h"
#include "arch/i386/pit.h"
#include "arch/i386/timer.h"
#include "arch/i386/traps.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/x86.h"
#include "kernel/bootinfo.h"
#include "kernel/chaos.h"
#include "kernel/clock.h"
#include "kernel/console.h"
#include "kernel/ksyms.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/task.h"
#include "kernel/mm/pmm.h"
#include "kernel/trace.h"
#include "lib/format.h"
#include "lib/string.h"

_Static_assert(SMPCFG_MAX_CPUS == NR_CPUS, "acpi.h sizes its CPU list by NR_CPUS");

#define AP_START_TIMEOUT_MS 1000
/* Generous: under TCG eight virtual CPUs share one host thread, and the
 * host may be busy. Only a CPU that never answers costs this much. */
#define STOP_TIMEOUT_NS     2000000000ull   /* 2 s */

extern const char ap_trampoline_start[], ap_trampoline_end[];

static struct smp_config cfg;
static bool have_config;
static int cpus_wanted = 1;                 /* after smp=N and NR_CPUS */
struct ap_report smp_ap_reports[NR_CPUS];
int smp_cpus_listed = 1;

/* An APIC register page this kernel can map: at its own address, above
 * the direct map of RAM (mmio.c). */
static bool mmio_ok(uint32_t phys, const char *what)
{
	if (phys >= KERNBASE + LOWMEM_MAX)
		return true;
	kprintf("smp: %s at %#x overlaps the kernel's RAM mapping: not used\n",
		what, phys);
	return false;
}

static bool listed(uint32_t apic_id)
{
	for (int i = 0; i < cfg.ncpus; i++)
		if (cfg.apic_ids[i] == apic_id)
			return true;
	return false;
}

static void print_config(void)
{
	kprintf("smp: %s: %d CPU%s (apic ids", cfg.source, cfg.ncpus_listed,
		cfg.ncpus_listed == 1 ? "" : "s");
	for (int i = 0; i < cfg.ncpus; i++)
		kprintf(" %u", cfg.apic_ids[i]);
	kprintf("), local APIC at %#x", cfg.lapic_phys);
	if (cfg.have_ioapic)
		kprintf(", IOAPIC id %u at %#x, IRQ 0 -> pin %d",
			cfg.ioapic_id, cfg.ioapic_phys, ioapic_pin(0));
	kprintf("\n");
	if (cpus_wanted < cfg.ncpus_listed && listed(cpus[0].apic_id))
		kprintf("smp: using %d of them (%s)\n", cpus_wanted,
			cpus_wanted < cfg.ncpus ? "smp= on the command line" : "NR_CPUS");
}

void smp_init(void)
{
	bool use_ioapic;

	/* The 8259s first: remapped and masked, whether or not the IOAPIC
	 * then takes their place. */
	pic_init();
	cpus[0].apic_id = 0;
	if (!lapic_usable()) {
		kprintf("smp: no local APIC in xAPIC mode: one CPU, 8259 PICs\n");
		return;
	}
	if (!smp_config_find(&cfg)) {
		kprintf("smp: no MADT or MP table: one CPU, 8259 PICs\n");
		return;
	}
	if (!cfg.lapic_phys)
		cfg.lapic_phys = LAPIC_DEFAULT_PHYS;
	if (!mmio_ok(cfg.lapic_phys, "the local APIC"))
		return;
	have_config = true;
	smp_cpus_listed = cfg.ncpus_listed;
	paging_map_mmio(cfg.lapic_phys & ~(uint32_t)(PGDIR_SIZE - 1));
	lapic_set_base(cfg.lapic_phys);
	cpus[0].apic_id = lapic_id();

	use_ioapic = cfg.have_ioapic && mmio_ok(cfg.ioapic_phys, "the IOAPIC");
	if (use_ioapic)
		paging_map_mmio(cfg.ioapic_phys & ~(uint32_t)(PGDIR_SIZE - 1));
	lapic_setup(true, use_ioapic);
	if (use_ioapic)
		ioapic_init(&cfg, cpus[0].apic_id);
	else
		cfg.have_ioapic = false;
	lapic_timer_calibrate();

	cpus_wanted = cfg.ncpus;
	if (bootinfo.cmdline.smp > 0 && bootinfo.cmdline.smp < cpus_wanted)
		cpus_wanted = bootinfo.cmdline.smp;
	if (!listed(cpus[0].apic_id)) {
		kprintf("smp: the boot CPU (apic id %u) is not in the table: no APs\n",
			cpus[0].apic_id);
		cpus_wanted = 1;
	}
	print_config();
}

/* The MP start-up sequence for one AP (SDM Vol. 3A 8.4.4.1): INIT, 10 ms,
 * STARTUP, 200 us, STARTUP, 200 us. The second STARTUP is ignored by an AP
 * that took the first (it is no longer waiting for one). */
static void start_ap(uint32_t apic_id)
{
	lapic_error();
	lapic_send_init(apic_id);
	pit_wait_us(10000);
	for (int i = 0; i < 2; i++) {
		lapic_send_startup(apic_id, AP_TRAMPOLINE_PHYS);
		pit_wait_us(200);
	}
}

/* Starts the AP apic_id as cpus[idx]; true once it says it is up. */
static bool boot_one(int idx, uint32_t apic_id, struct ap_boot_params *p)
{
	struct task *idle = idle_task_create(idx);
	struct cpu *c = &cpus[idx];

	if (!idle) {
		kprintf("smp: no memory for cpu%d's idle task\n", idx);
		return false;
	}
	c->id = idx;
	c->apic_id = apic_id;
	c->started = false;
	p->stack_top = (uint32_t)idle->ti + KSTACK_SIZE;
	p->stage = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);

	start_ap(apic_id);
	for (int ms = 0; ms < AP_START_TIMEOUT_MS; ms++) {
		if (__atomic_load_n(&c->started, __ATOMIC_ACQUIRE))
			return true;
		pit_wait_us(1000);
	}
	kprintf("smp: cpu%d (apic id %u) did not start: stage %u, APIC error %#x\n",
		idx, apic_id, p->stage, lapic_error());
	/* Back to wait-for-SIPI, so it cannot run on later with this
	 * index or stack (SDM 8.4.1: INIT resets it). */
	lapic_send_init(apic_id);
	pit_wait_us(10000);
	task_free(idle);
	return false;
}

void smp_boot_aps(void)
{
	struct ap_boot_params *p = P2V(AP_TRAMPOLINE_PHYS + AP_PARAMS_OFFSET);
	uint32_t *pgdir;

	if (!have_config || cpus_wanted <= 1)
		return;
	pgdir = page_alloc(0);
	if (!pgdir) {
		kprintf("smp: no memory for the start-up page directory\n");
		return;
	}
	/* The AP turns paging on while running in the low page, so its
	 * first directory maps the low 4 MiB as well as the kernel half. */
	memcpy(pgdir, kernel_pgdir, PAGE_SIZE);
	pgdir[0] = 0 | PTE_P | PTE_W | PTE_PS;
	ASSERT(ap_trampoline_end - ap_trampoline_start <= AP_PARAMS_OFFSET);
	memcpy(P2V(AP_TRAMPOLINE_PHYS), ap_trampoline_start,
	       (size_t)(ap_trampoline_end - ap_trampoline_start));
	p->pgdir = V2P(pgdir);
	p->cr0 = read_cr0();
	p->cr4 = read_cr4();

	/* One at a time: they share the parameters and the trampoline. */
	for (int i = 0; i < cfg.ncpus && ncpus < cpus_wanted; i++)
		if (cfg.apic_ids[i] != cpus[0].apic_id)
			boot_one(ncpus, cfg.apic_ids[i], p);
	page_free(pgdir, 0);
	kprintf("smp: %d CPU%s running\n", ncpus, ncpus == 1 ? "" : "s");
}

/* Records what this AP's registers say, for tests/guest/ktest_smp.c. */
static void report_self(int id)
{
	struct pseudo_desc gd = sgdt();
	struct ap_report *r = &smp_ap_reports[id];

	r->gdt_base = gd.base;
	r->gdt_limit = gd.limit;
	r->tr = str();
	r->cs = read_seg(cs);
	r->ds = read_seg(ds);
	r->ss = read_seg(ss);
	r->cr0 = read_cr0();
	r->cr3 = read_cr3();
	r->cr4 = read_cr4();
}

void ap_main(void)
{
	struct ap_boot_params *p = P2V(AP_TRAMPOLINE_PHYS + AP_PARAMS_OFFSET);
	struct thread_info *ti = current_thread_info();
	struct cpu *c = &cpus[ti->cpu];

	p->stage = AP_STAGE_C;
	gdt_init_cpu(c);                /* own GDT (seed layout) and TSS */
	fpu_init_cpu();                 /* CR0.MP/NE/TS, CR4.OSFXSR/OSXMMEXCPT */
	write_cr3(V2P(kernel_pgdir));   /* drop the low identity map */
	idt_load();
	lapic_setup(false, true);
	timer_start(HZ);                /* the same tick as the boot CPU's */
	chaos_tick();                   /* chaos=SEED: the first period too */
	sched_init_cpu(c->id, ti->task);
	report_self(c->id);

	__atomic_add_fetch(&ncpus, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&c->started, true, __ATOMIC_RELEASE);
	cpu_idle();                     /* enables interrupts */
}

void smp_send_ipi(int cpu, int vector)
{
	TRACE(TR_IPI_SEND, (uint32_t)cpu, (uint32_t)vector, 0, 0, 0);
	lapic_send_ipi(cpus[cpu].apic_id, vector);
}

void smp_print_cpus(void)
{
	for (int i = 0; i < NR_CPUS; i++)
		if (cpus[i].started)
			kprintf("cpu%d: apic id %u, GDT at %p, TSS at %p\n", i,
				cpus[i].apic_id, (void *)cpus[i].gdt, (void *)&cpus[i].tss);
}

/* ---- stopping every CPU (panic) ---- */

static volatile int stop_requested;
static volatile uint32_t stopped_mask;      /* bit i: cpus[i] has stopped */
static volatile int report_turn = -1;       /* the CPU that may print */

bool smp_stopping(void)
{
	return stop_requested;
}

/* The running CPUs but this one, as a bit mask. */
static uint32_t others_mask(void)
{
	uint32_t m = 0;

	for (int i = 0; i < NR_CPUS; i++)
		if (cpus[i].started && i != current_thread_info()->cpu)
			m |= 1u << i;
	return m;
}

/* Waits until every CPU in want has stopped, 100 ms at most (by the TSC:
 * the PIT may be what the panicking CPU was using). */
static bool wait_stopped(uint32_t want)
{
	uint64_t end = clock_ns() + STOP_TIMEOUT_NS;

	while ((stopped_mask & want) != want && clock_ns() < end)
		pause();
	return (stopped_mask & want) == want;
}

void smp_stop_others(void)
{
	uint32_t others = others_mask();

	if (!others || !lapic_mapped())
		return;
	__atomic_store_n(&stop_requested, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < NR_CPUS; i++)
		if (others & (1u << i))
			lapic_send_ipi(cpus[i].apic_id, T_IPI_STOP);
	if (wait_stopped(others))
		return;
	/* Interrupts off on those (spinning, or in a second panic): an NMI
	 * gets through (SDM 6.7). trap.c sends T_NMI here while stopping. */
	for (int i = 0; i < NR_CPUS; i++)
		if ((others & (1u << i)) && !(stopped_mask & (1u << i)))
			lapic_send_nmi(cpus[i].apic_id);
	wait_stopped(others);
}

static int next_stopped(int after)
{
	for (int i = after + 1; i < NR_CPUS; i++)
		if (stopped_mask & (1u << i))
			return i;
	return NR_CPUS;
}

void smp_report_stopped(void)
{
	uint64_t end;

	if (!stopped_mask)
		return;
	__atomic_store_n(&report_turn, next_stopped(-1), __ATOMIC_SEQ_CST);
	end = clock_ns() + STOP_TIMEOUT_NS;
	while (report_turn < NR_CPUS && clock_ns() < end)
		pause();
}

void smp_stop_this_cpu(struct trapframe *tf)
{
	int me = current_thread_info()->cpu;
	struct task *t = current;
	char line[160], sym[64];
	const char *fn;
	uint32_t off = 0;
	int n;

	cli();
	__atomic_or_fetch(&stopped_mask, 1u << me, __ATOMIC_SEQ_CST);
	/* No lock: the console's may be held by a CPU that is stopped
	 * already. One line each, when it is this CPU's turn. */
	while (report_turn != me)
		pause();
	fn = tf_from_user(tf) ? "(user)" : ksym_lookup(tf->eip, &off);
	if (fn && !tf_from_user(tf))
		snprintf(sym, sizeof(sym), "%s+0x%x", fn, off);
	else
		strlcpy(sym, fn ? fn : "?", sizeof(sym));
	n = snprintf(line, sizeof(line), "cpu%d stopped: eip=0x%08x %s task=%s tid=%d\n",
		     me, tf->eip, sym, t ? t->comm : "?", t ? t->tid : -1);
	console_write(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	__atomic_store_n(&report_turn, next_stopped(me), __ATOMIC_SEQ_CST);
	for (;;)
		hlt();
}
