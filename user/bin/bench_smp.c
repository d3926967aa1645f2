/* user/bin/bench_smp.c - SMP micro-benchmarks that repeat exactly:
 * `make bench SMP=N` boots this as init under QEMU -icount at -smp N
 * (tools/bench.sh; docs/benchmarks.md, "SMP").
 *
 * Under -icount, QEMU runs the virtual CPUs round-robin on one host
 * thread: one vCPU runs until it halts, executes `pause`, or reaches the
 * next timer deadline, then the next one runs. The guest TSC is one
 * virtual clock that every instruction of every CPU advances, so a figure
 * here is the instructions all CPUs together spent per operation, and the
 * same boot prints the same figures every time. What that asks of a
 * benchmark: never wait for another CPU by spinning without `pause` (that
 * vCPU would keep the turn until the next timer deadline) - every wait
 * here is a FUTEX_WAIT (the waiter's CPU halts and hands the turn on at
 * once) or a `pause` loop - and pin every thread with sched_setaffinity,
 * so that which CPU runs what is decided by the program, not by load.
 *
 * Every thread of a row is created here with bench_clone (user/bench/
 * sys.h) and starts by pinning itself; rows.h keeps the results. A row
 * that needs more CPUs than the machine has says so ("not run"). */
#include "stdio.h"
#include "string.h"
#include "stdlib.h"
#include "raw.h"
#include "sys/mman.h"
#include "user/bench/sys.h"
#include "user/bench/rows.h"

#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
	CLONE_THREAD | CLONE_SETTID | CLONE_DETACHED | CLONE_RELEASE_VM)
#define MAX_CPUS 8
#define STACK 4096

static int ncpus;
static uint8_t stacks[MAX_CPUS + 2][STACK] __attribute__((aligned(16)));
static int ptid;

/* ---- pinning, and which CPU this is ---- */

static long pin(uint32_t mask)
{
	return raw_sched_setaffinity(0, sizeof(mask), &mask);
}

/* Every CPU has its own GDT (docs/smp.md), so its base names the CPU. */
static uint32_t this_gdt(void)
{
	struct __attribute__((packed)) { uint16_t limit; uint32_t base; } g = { 0, 0 };

	__asm__ volatile("sgdt %0" : "=m"(g));
	return g.base;
}

static void relax(void)
{
	__asm__ volatile("pause" ::: "memory");  /* hands the vCPU's turn on */
}

/* ---- threads: started pinned, joined through CLONE_RELEASE_VM ---- */

static volatile int *release_word(int slot)
{
	return (volatile int *)(stacks[slot] + STACK - 4);
}

struct start {
	void (*fn)(void *);
	void *arg;
	int cpu;                        /* the CPU it pins itself to */
};
static struct start starts[MAX_CPUS + 2];
static volatile int started;

static void thread_main(void *p)
{
	struct start *s = p;

	if (pin(1u << s->cpu) == 0) {
		__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
		sys_futex(&started, FUTEX_WAKE, 1);
		s->fn(s->arg);
	} else {
		started = -1000;
		sys_futex(&started, FUTEX_WAKE, 1);
	}
}

/* Starts fn(arg) on stack slot, pinned to cpu; waits until it runs there. */
static bool start_on(struct row *r, int slot, int cpu, void (*fn)(void *), void *arg)
{
	int before = started;
	long tid;

	starts[slot] = (struct start){ fn, arg, cpu };
	*release_word(slot) = 1;
	tid = bench_clone(THREAD_FLAGS, stacks[slot] + STACK, &ptid, NULL, thread_main,
			  &starts[slot]);
	if (tid < 0) {
		*release_word(slot) = 0;
		fail(r, "clone = %ld", tid);
		return false;
	}
	for (int now; (now = started) == before;)
		sys_futex(&started, FUTEX_WAIT, now);
	if (started < 0) {
		fail(r, "sched_setaffinity(cpu%d) failed in the thread", cpu);
		return false;
	}
	return true;
}

/* Waits (pause, yield: the thread may be on another CPU) until the thread
 * on slot has exited and released its stack. */
static bool join(struct row *r, int slot)
{
	uint64_t t0 = rdtsc();

	while (*release_word(slot)) {
		if (rdtsc() - t0 > DEADLINE) {
			fail(r, "a thread did not exit in %llu ticks", DEADLINE);
			return false;
		}
		relax();
		sys_yield();
	}
	return true;
}

static void wait_word(volatile int *w)
{
	while (*w == 0)
		sys_futex(w, FUTEX_WAIT, 0);
	*w = 0;
}

static void wake_word(volatile int *w)
{
	*w = 1;
	sys_futex(w, FUTEX_WAKE, 1);
}

/* ---- futex round trips, and the wake-up of a halted CPU ---- */

static volatile int to_partner, to_main, pp_stop;
static uint64_t wake_sent, wake_ticks;  /* the wake-up row's sum */

static void partner(void *arg)
{
	(void)arg;
	for (;;) {
		wait_word(&to_partner);
		wake_ticks += rdtsc() - wake_sent;
		if (pp_stop)
			return;
		wake_word(&to_main);
	}
}

static bool partner_start(struct row *r, int cpu)
{
	to_partner = to_main = pp_stop = 0;
	return start_on(r, 0, cpu, partner, NULL);
}

static bool partner_stop(struct row *r)
{
	pp_stop = 1;
	wake_word(&to_partner);
	return join(r, 0);
}

/* n round trips main (cpu0) <-> partner (cpu): two wakes, two waits. */
static uint32_t round_trips(struct row *r, int n, int cpu, bool wake_only)
{
	uint64_t t0, t1;

	if (cpu >= ncpus) {
		r->error = NULL;
		return 0;
	}
	if (!partner_start(r, cpu))
		return 0;
	wake_ticks = 0;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		wake_sent = rdtsc();
		wake_word(&to_partner);
		wait_word(&to_main);
	}
	t1 = rdtsc();
	if (!partner_stop(r))
		return 0;
	return (uint32_t)((wake_only ? wake_ticks : t1 - t0) / (uint64_t)n);
}

static uint32_t bench_rt_same(struct row *r, int n) { return round_trips(r, n, 0, false); }
static uint32_t bench_rt_cross(struct row *r, int n) { return round_trips(r, n, 1, false); }
static uint32_t bench_wake(struct row *r, int n) { return round_trips(r, n, 1, true); }

/* ---- a thread that starts on another CPU ---- */

static volatile int child_done;
static volatile int remote_runs;        /* children that ran off main's CPU */
static volatile uint32_t home_gdt;      /* main's CPU (its GDT) at the clone */

static void remote_child(void *arg)
{
	(void)arg;
	if (this_gdt() != home_gdt)
		remote_runs++;
	wake_word(&child_done);
}

/* main may use cpus 0 and 1 and runs on 0, so a new thread goes to the
 * idle cpu1 (pick_cpu: the least loaded allowed CPU); it tells main it
 * ran, main wakes, and the next clone may reuse its task (the task cache
 * of cpu0 or a fresh one: this measures placement, IPI and wake-up). */
static uint32_t bench_remote_create(struct row *r, int n)
{
	uint64_t t0, t1;

	if (pin(1) < 0 || pin(3) < 0) {         /* on cpu0, may use cpu1 */
		fail(r, "sched_setaffinity");
		return 0;
	}
	remote_runs = 0;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		/* Main may itself have moved to cpu1 while it slept or
		 * yielded (its mask allows it, and an idle CPU pulls queued
		 * work): "off main's CPU" is off the one it clones from. */
		home_gdt = this_gdt();
		*release_word(1) = 1;
		long tid = bench_clone(THREAD_FLAGS, stacks[1] + STACK, &ptid, NULL,
				       remote_child, NULL);
		if (tid < 0) {
			fail(r, "clone = %ld", tid);
			return 0;
		}
		wait_word(&child_done);
		/* Its stack is free once its CLONE_RELEASE_VM word is 0. */
		while (*release_word(1)) {
			relax();
			sys_yield();
		}
		/* It still counts on its CPU's queue until its last
		 * schedule(), a little after that word (exit.c): a clone at
		 * once would find both CPUs equally loaded and stay here.
		 * One more turn for it (pause hands QEMU's vCPU turn on). */
		relax();
		sys_yield();
	}
	t1 = rdtsc();
	pin(1);
	/* Placement picks the least loaded allowed CPU: the idle one,
	 * unless a tick's work happens to sit there at that moment. */
	if (remote_runs < n / 2) {
		fail(r, "only %d of %d threads started off main's CPU", remote_runs, n);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- a detached create/exit storm on every CPU at once ---- */

static volatile int storm_go, storm_left, storm_done;
static int storm_n;
static volatile int storm_failed;

static uint8_t storm_stacks[MAX_CPUS][STACK] __attribute__((aligned(16)));

static void storm_creator(void *arg)
{
	uint8_t *top = storm_stacks[(int)arg] + STACK;
	volatile int *word = (volatile int *)(top - 4);

	while (storm_go == 0)
		sys_futex(&storm_go, FUTEX_WAIT, 0);
	for (int i = 0; i < storm_n; i++) {
		*word = 1;
		/* The child inherits the pin: it runs on this CPU, so
		 * yielding runs it, and its task goes to this CPU's cache. */
		if (bench_clone(THREAD_FLAGS, top, &ptid, NULL, NULL, NULL) < 0) {
			storm_failed = 1;
			break;
		}
		while (*word)
			sys_yield();
	}
	if (__atomic_sub_fetch(&storm_left, 1, __ATOMIC_SEQ_CST) == 0)
		wake_word(&storm_done);
}

/* The task-cache reuse count of each CPU (/proc/kstat). */
static void cache_reused(uint64_t *reused)
{
	static char buf[8192];
	long fd = raw_open("/proc/kstat", 0), n = 0, got;
	char *s;

	memset(reused, 0, MAX_CPUS * sizeof(*reused));
	if (fd < 0)
		return;
	while (n < (long)sizeof(buf) - 1 && (got = raw_read((int)fd, buf + n,
							   sizeof(buf) - 1 - (size_t)n)) > 0)
		n += got;
	raw_close((int)fd);
	buf[n] = 0;
	for (s = buf; (s = strstr(s, "task_cache_cpu ")); s++) {
		int cpu = s[15] - '0';
		char *re = strstr(s, "reused ");
		if (cpu >= 0 && cpu < MAX_CPUS && re)
			reused[cpu] = strtoul(re + 7, NULL, 10);
	}
}

static uint64_t storm_reused[MAX_CPUS];

static uint32_t bench_storm(struct row *r, int n)
{
	uint64_t t0, t1, before[MAX_CPUS];

	storm_go = storm_done = storm_failed = 0;
	storm_left = ncpus;
	storm_n = n;
	for (int c = 0; c < ncpus; c++)
		if (!start_on(r, 2 + c, c, storm_creator, (void *)c))
			return 0;
	cache_reused(before);
	t0 = rdtsc();
	storm_go = 1;
	sys_futex(&storm_go, FUTEX_WAKE, ncpus);
	wait_word(&storm_done);
	t1 = rdtsc();
	cache_reused(storm_reused);
	for (int c = 0; c < ncpus; c++) {
		storm_reused[c] -= before[c];
		if (!join(r, 2 + c))
			return 0;
	}
	if (storm_failed) {
		fail(r, "a clone failed");
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)(n * ncpus));
}

/* ---- TLB shootdown: munmap while the address space runs on k CPUs ---- */

static volatile int spin_stop;

static void spinner(void *arg)
{
	(void)arg;
	while (!spin_stop)
		relax();
}

static uint32_t munmap_with_spinners(struct row *r, int n, int k)
{
	uint64_t sum = 0;

	if (k > ncpus)
		return 0;
	spin_stop = 0;
	for (int c = 1; c < k; c++)
		if (!start_on(r, 2 + c, c, spinner, NULL))
			return 0;
	for (int i = 0; i < n; i++) {
		long p = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p < 0 && p > -4096) {
			fail(r, "mmap2 = %ld", p);
			return 0;
		}
		*(volatile int *)p = i;         /* mapped in the TLB now */
		uint64_t t0 = rdtsc();
		long e = raw_munmap((void *)p, 4096);
		sum += rdtsc() - t0;
		if (e) {
			fail(r, "munmap = %ld", e);
			return 0;
		}
	}
	spin_stop = 1;
	for (int c = 1; c < k; c++)
		if (!join(r, 2 + c))
			return 0;
	return (uint32_t)(sum / (uint64_t)n);
}

static uint32_t bench_munmap_1(struct row *r, int n) { return munmap_with_spinners(r, n, 1); }
static uint32_t bench_munmap_all(struct row *r, int n) { return munmap_with_spinners(r, n, ncpus); }

/* ---- a migration, with the TLS slot and an LDT entry reloaded ---- */

static uint32_t tls_word = 0x71571571, ldt_word = 0x1d71d71d;

static uint32_t bench_migrate(struct row *r, int n)
{
	/* static: the first run takes a free slot (-1), the others reuse it */
	static struct user_desc tls = { .entry_number = (unsigned)-1, .base_addr = (uint32_t)&tls_word,
		.limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	struct user_desc ldt = { .entry_number = 0, .base_addr = (uint32_t)&ldt_word,
		.limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	uint32_t gs_val, fs_val, g0, g1;
	uint64_t t0, t1;

	if (ncpus < 2)
		return 0;
	long e1 = sys_set_thread_area(&tls), e2 = raw_modify_ldt(0x11, &ldt, sizeof(ldt));
	if (e1 < 0 || e2 < 0) {
		fail(r, "set_thread_area = %ld, modify_ldt = %ld", e1, e2);
		return 0;
	}
	__asm__ volatile("movl %0, %%gs" : : "r"(tls.entry_number * 8 + 3));
	__asm__ volatile("movl %0, %%fs" : : "r"(0 * 8 + 4 + 3));     /* LDT 0, RPL 3 */
	pin(1);
	g0 = this_gdt();
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		pin(i & 1 ? 1 : 2);
	t1 = rdtsc();
	pin(2);
	g1 = this_gdt();
	__asm__ volatile("movl %%gs:0, %0" : "=r"(gs_val));
	__asm__ volatile("movl %%fs:0, %0" : "=r"(fs_val));
	pin(1);
	__asm__ volatile("movl %0, %%fs; movl %0, %%gs" : : "r"(0));
	if (g0 == g1 || gs_val != tls_word || fs_val != ldt_word) {
		fail(r, "after migrating: same GDT %d, %%gs:0 %#x, %%fs:0 %#x", g0 == g1,
		     gs_val, fs_val);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- the table ---- */

static struct row rows[] = {
	{ "futex round trip, same CPU (cpu0 <-> cpu0)", "-", 0, {0}, 0, NULL },
	{ "futex round trip, across CPUs (cpu0 <-> cpu1)", "-", 0, {0}, 0, NULL },
	{ "wake-up of a thread on a halted CPU (IPI)", "-", 0, {0}, 0, NULL },
	{ "create a thread that starts on another CPU", "-", 0, {0}, 0, NULL },
	{ "detached create+exit, every CPU creating", "-", 0, {0}, 0, NULL },
	{ "munmap 1 page, address space on 1 CPU", "-", 0, {0}, 0, NULL },
	{ "munmap 1 page, address space on all CPUs", "-", 0, {0}, 0, NULL },
	{ "migration cpu0 <-> cpu1, TLS and LDT reloaded", "-", 0, {0}, 0, NULL },
};

int main(void)
{
	uint32_t online = 0;

	if (raw_sched_getaffinity(0, sizeof(online), &online) != 4 || pin(1) < 0) {
		printf("bench_smp: sched_getaffinity/setaffinity: FAILED\n");
		return 2;
	}
	ncpus = __builtin_popcount(online);
	printf("bench_smp: %d CPUs; main runs on cpu0\n", ncpus);
	measure(&rows[0], bench_rt_same, 500);
	if (ncpus >= 2) {
		measure(&rows[1], bench_rt_cross, 500);
		measure(&rows[2], bench_wake, 500);
		measure(&rows[3], bench_remote_create, 200);
	}
	measure(&rows[4], bench_storm, 200);
	measure(&rows[5], bench_munmap_1, 200);
	if (ncpus >= 2)
		measure(&rows[6], bench_munmap_all, 200);
	if (ncpus >= 2)
		measure(&rows[7], bench_migrate, 200);

	printf("==== bench_smp table ====\n");
	printf("QEMU -icount shift=0 -smp %d (round-robin vCPUs), deterministic;\n", ncpus);
	printf("ticks = guest instructions of all CPUs per operation, median of %d runs.\n\n",
	       RUNS);
	printf("%-46s %9s  %-8s  %-7s  %s\n", "benchmark", "ticks/op", "target", "", "runs");
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		print_row(&rows[i]);
	printf("\ntask-cache reuses per CPU in the last storm run:");
	for (int c = 0; c < ncpus; c++)
		printf(" cpu%d %llu", c, (unsigned long long)storm_reused[c]);
	printf("\n");
	printf("==== end of bench_smp table ====\n");
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].error)
			return 2;
	return 0;
}
