/* user/bin/bench_fpu.c - what a task switch costs with and without FPU
 * state (docs/switch.md, docs/benchmarks.md), booted as init by
 * tools/bench.sh twice: with fpu=eager and with fpu=lazy.
 *
 * Each row is two threads yielding to each other, as /bin/bench's
 * sched_yield row; a thread "uses the FPU" by executing one x87 and one
 * SSE instruction after each yield, which is what makes the kernel's
 * save and restore (eager) or #NM trap (lazy) happen. Ticks are guest
 * instructions (QEMU -icount shift=0) per switch: note that fxsave and
 * fxrstor count as one instruction each, however many cycles a real CPU
 * spends on their 512 bytes. /proc/kstat's fpu_* counters, read around
 * each row, say what the kernel did per switch. */
#include "stdio.h"
#include "string.h"
#include "raw.h"
#include "user/bench/sys.h"
#include "user/bench/rows.h"
#include "stdlib.h"

#define FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	       CLONE_DETACHED | CLONE_RELEASE_VM)
#define STACK 4096
#define N 1000

/* Two partner threads, made at the start while no thread of this
 * process has touched the FPU: a clone copies its creator's FPU state
 * (abi.md section 10), and in eager mode a task with state gets it
 * restored at every switch whether it uses it or not. Partner 0 never
 * uses the FPU; partner 1 does. A partner sleeps on its gate word (a
 * futex) while its row is not running. */
static uint8_t stacks[2][STACK] __attribute__((aligned(16)));
static volatile int gate[2], quit;
static volatile uint32_t partner_yields;

/* One x87 and one SSE instruction: the registers are this task's. */
static inline void touch_fpu(void)
{
	__asm__ volatile("fldz\n\tfstp %%st(0)\n\txorps %%xmm1, %%xmm1" ::: "memory");
}

static void partner(void *arg)
{
	int id = (int)(long)arg;

	while (!quit) {
		while (!gate[id] && !quit)
			sys_futex(&gate[id], FUTEX_WAIT, 0);
		if (id == 1)
			touch_fpu();
		partner_yields++;
		sys_yield();
	}
}

static volatile int *release_word(int id)
{
	return (volatile int *)(stacks[id] + STACK - 4);
}

static bool start_partners(void)
{
	for (int id = 0; id < 2; id++) {
		*release_word(id) = 1;
		if (bench_clone(FLAGS, stacks[id] + STACK, NULL, NULL, partner, (void *)(long)id) < 0)
			return false;
	}
	return true;
}

static void stop_partners(void)
{
	quit = 1;
	for (int id = 0; id < 2; id++) {
		sys_futex(&gate[id], FUTEX_WAKE, 1);
		wait_zero(release_word(id));
	}
}

struct counts {
	unsigned long nm, restores, saves, hits;
};

static char kstat[8192];

/* /proc/kstat into kstat[]; false if it cannot be read. */
static bool read_kstat(void)
{
	long fd = raw_open("/proc/kstat", 0), n = 0, r;

	if (fd < 0)
		return false;
	while (n < (long)sizeof(kstat) - 1 &&
	       (r = raw_read((int)fd, kstat + n, sizeof(kstat) - 1 - (size_t)n)) > 0)
		n += r;
	raw_close((int)fd);
	kstat[n] = 0;
	return true;
}

/* The number after "name " at the start of a line, or 0. */
static unsigned long kstat_num(const char *name)
{
	size_t len = strlen(name);

	for (const char *s = kstat; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : "")
		if (!strncmp(s, name, len) && s[len] == ' ')
			return strtoul(s + len + 1, NULL, 10);
	return 0;
}

static void read_counts(struct counts *c)
{
	memset(c, 0, sizeof(*c));
	if (!read_kstat())
		return;
	c->nm = kstat_num("fpu_nm_traps");
	c->restores = kstat_num("fpu_restores");
	c->saves = kstat_num("fpu_saves");
	c->hits = kstat_num("fpu_lazy_hits");
}

static int mine, theirs;                /* does this thread use the FPU; the partner */
static struct counts per_switch[3];     /* the last run of each row, x 100 */
static int row_now;

static uint32_t bench_switch(struct row *r, int n)
{
	struct counts c0, c1;
	uint32_t y0, y1, switches;
	uint64_t t0, t1;

	gate[theirs] = 1;
	sys_futex(&gate[theirs], FUTEX_WAKE, 1);
	sys_yield();                            /* let it start its loop */
	read_counts(&c0);
	y0 = partner_yields;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		if (mine)
			touch_fpu();
		sys_yield();
	}
	t1 = rdtsc();
	y1 = partner_yields;
	read_counts(&c1);
	gate[theirs] = 0;                       /* it sleeps at its next turn */
	switches = (uint32_t)n + (y1 - y0);
	if (y1 - y0 < (uint32_t)n / 2) {
		fail(r, "the partner yielded %u times during %d yields: no switching", y1 - y0, n);
		return 0;
	}
	per_switch[row_now].nm = (c1.nm - c0.nm) * 100 / switches;
	per_switch[row_now].restores = (c1.restores - c0.restores) * 100 / switches;
	per_switch[row_now].saves = (c1.saves - c0.saves) * 100 / switches;
	per_switch[row_now].hits = (c1.hits - c0.hits) * 100 / switches;
	return (uint32_t)((t1 - t0) / switches);
}

static struct row rows[3] = {
	{ "switch, 2 threads that never use the FPU", "-", 0, {0}, 0, 0 },
	{ "switch, an FPU thread and a non-FPU thread", "-", 0, {0}, 0, 0 },
	{ "switch, 2 threads using x87+SSE", "-", 0, {0}, 0, 0 },
};

int main(void)
{
	/* In this order: the first row before this thread uses the FPU. */
	static const int use[3][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 } };
	const char *mode = "?", *m;

	if (read_kstat() && (m = strstr(kstat, "\nfpu_mode ")))
		mode = !strncmp(m + 10, "lazy", 4) ? "lazy" : "eager";
	if (!start_partners()) {
		printf("bench_fpu: clone failed\n");
		return 2;
	}
	for (row_now = 0; row_now < 3; row_now++) {
		mine = use[row_now][0];
		theirs = use[row_now][1];
		measure(&rows[row_now], bench_switch, N);
	}
	stop_partners();
	printf("==== bench_fpu table ====\n");
	printf("FPU switching, fpu=%s: QEMU -icount shift=0 -smp 1; ticks = guest instructions\n", mode);
	printf("per switch (fxsave/fxrstor count 1 each); median of %d runs; per 100 switches,\n", RUNS);
	printf("the kernel's #NM traps, restores, saves and restores skipped (registers still valid).\n\n");
	for (int i = 0; i < 3; i++) {
		print_row(&rows[i]);
		printf("    per 100 switches: %lu #NM, %lu restores, %lu saves, %lu skipped\n",
		       per_switch[i].nm, per_switch[i].restores, per_switch[i].saves,
		       per_switch[i].hits);
	}
	printf("==== end of bench_fpu table ====\n");
	return nerr ? 2 : 0;
}
