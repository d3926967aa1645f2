/* user/bin/bench.c - the speed section of the "Threads" issue: raw system
 * call micro-benchmarks, booted as init by tools/bench.sh (`make bench`).
 *
 * QEMU runs with -icount shift=0, so the guest TSC advances one tick per
 * guest instruction and every run repeats exactly: a figure here is "guest
 * instructions per operation", user and kernel together. Each benchmark
 * is one warm-up run (discarded) and RUNS runs of N iterations; the table
 * shows the median run and all of them. docs/benchmarks.md explains each.
 *
 * Everything on the measured paths is inline asm (int $0x80) or
 * bench_clone (user/bench/sys.h), so the libc's wrappers cost nothing;
 * user/bench/rows.h keeps the results, and user/bench/common.h has the
 * rows /bin/bench_pt times alike (getpid, fork). A benchmark that
 * fails (a system call error, a thread that never exits: every poll is
 * bounded by a TSC deadline) says so in its row and the others still run;
 * a hang in a blocking call is left to tools/bench.sh's timeout, which
 * finds the last "bench: running" line. */
#include "signal.h"
#include "stdio.h"
#include "string.h"
#include "raw.h"
#include "user/bench/sys.h"
#include "user/bench/rows.h"
#include "user/bench/common.h"

#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
	CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID | CLONE_DETACHED | CLONE_RELEASE_VM)

/* ---- set_thread_area + %gs reload ---- */

static uint32_t tls_block[4] = { 0x5eed7150 };
static struct user_desc tls_desc;       /* the main thread's, entry -1 -> 6 */

static uint32_t bench_tls(struct row *r, int n)
{
	uint32_t sel, seen;
	uint64_t t0, t1;

	if (!tls_desc.limit) {          /* the first run: allocate a slot */
		tls_desc = (struct user_desc){ .entry_number = (unsigned)-1,
			.base_addr = (uint32_t)tls_block, .limit = 0xfffff,
			.seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
		long e = sys_set_thread_area(&tls_desc);
		if (e < 0) {
			fail(r, "set_thread_area(-1) = %ld", e);
			return 0;
		}
	}
	sel = tls_desc.entry_number * 8 + 3;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		sys_set_thread_area(&tls_desc);
		__asm__ volatile("movl %0, %%gs" : : "r"(sel));
	}
	t1 = rdtsc();
	__asm__ volatile("movl %%gs:0, %0" : "=r"(seen));
	if (seen != tls_block[0]) {
		fail(r, "%%gs:0 reads %#x, not %#x", seen, tls_block[0]);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- threads ---- */

#define STACK 2048
static uint8_t stacks[2][STACK] __attribute__((aligned(16)));
static uint32_t thread_tls[4];
static struct user_desc child_tls;      /* CLONE_SETTLS: entry 6, its own block */
static int ptid;

static volatile int *release_word(uint8_t *top)
{
	return (volatile int *)(top - 4);
}

/* Starts fn(arg) as a thread on stack top; false after fail(). */
static bool start_thread(struct row *r, uint8_t *top, void (*fn)(void *), void *arg)
{
	long tid;

	*release_word(top) = 1;
	tid = bench_clone(THREAD_FLAGS, top, &ptid, &child_tls, fn, arg);
	if (tid < 0) {
		*release_word(top) = 0;
		fail(r, "clone = %ld", tid);
		return false;
	}
	if (ptid != tid) {
		fail(r, "CLONE_SETTID wrote %d, clone returned %ld", ptid, tid);
		return false;
	}
	return true;
}

static bool join(struct row *r, uint8_t *top)
{
	if (wait_zero(release_word(top)))
		return true;
	fail(r, "a thread's CLONE_RELEASE_VM word is still set after %llu ticks", DEADLINE);
	return false;
}

/* sched_yield: a partner thread yields in a loop while this one yields n
 * times; every yield switches, and ycount tells how many the partner did. */
static volatile int ystop, ystarted;
static volatile uint32_t ycount;

static void yielder(void *arg)
{
	(void)arg;
	ystarted = 1;
	while (!ystop) {
		ycount++;
		sys_yield();
	}
}

static uint32_t bench_yield(struct row *r, int n)
{
	uint8_t *top = stacks[0] + STACK;
	uint32_t c0, c1;
	uint64_t t0, t1;

	ystop = ystarted = 0;
	if (!start_thread(r, top, yielder, NULL))
		return 0;
	while (!ystarted)
		sys_yield();
	c0 = ycount;
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		sys_yield();
	t1 = rdtsc();
	c1 = ycount;
	ystop = 1;
	if (!join(r, top))
		return 0;
	if (c1 - c0 < (uint32_t)n / 2) {
		fail(r, "the partner yielded %u times during %d yields: no switching", c1 - c0, n);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (n + (c1 - c0)));
}

/* futex ping-pong: each thread WAITs on its own word and WAKEs the other's.
 * ping is this thread's word, pong the partner's; pong = 2 stops it. */
static volatile int ping, pong;

static void ponger(void *arg)
{
	(void)arg;
	for (;;) {
		while (pong == 0)
			sys_futex(&pong, FUTEX_WAIT, 0);
		if (pong == 2)
			return;
		pong = 0;
		ping = 1;
		sys_futex(&ping, FUTEX_WAKE, 1);
	}
}

static uint32_t bench_futex(struct row *r, int n)
{
	uint8_t *top = stacks[1] + STACK;
	uint64_t t0, t1;

	ping = pong = 0;
	if (!start_thread(r, top, ponger, NULL))
		return 0;
	t0 = rdtsc();
	for (int i = 0; i < n; i++) {
		pong = 1;
		sys_futex(&pong, FUTEX_WAKE, 1);
		while (ping == 0)
			sys_futex(&ping, FUTEX_WAIT, 0);
		ping = 0;
	}
	t1 = rdtsc();
	pong = 2;
	sys_futex(&pong, FUTEX_WAKE, 1);
	return join(r, top) ? (uint32_t)((t1 - t0) / (uint64_t)n) : 0;
}

/* Thread create + exit + wait for its RELEASE_VM word: the child does
 * nothing but exit. The one stack is reused once its word is 0. */
static uint32_t bench_create(struct row *r, int n)
{
	uint8_t *top = stacks[0] + STACK;
	uint64_t t0, t1;

	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		if (!start_thread(r, top, NULL, NULL) || !join(r, top))
			return 0;
	t1 = rdtsc();
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- between processes, faults, signals ---- */

/* sched_yield between two processes: as bench_yield, but the partner is
 * a forked child, so every switch also changes CR3 (and flushes the TLB).
 * The stop flag and the partner's count live in a MAP_SHARED page. */
struct yshared {
	volatile int stop, started;
	volatile uint32_t count;
};

static uint32_t bench_yield_proc(struct row *r, int n)
{
	long m = raw_mmap2(NULL, 4096, 3, 0x21, -1, 0);         /* MAP_SHARED|ANON */
	struct yshared *s = (struct yshared *)m;
	uint32_t c0, c1;
	uint64_t t0, t1;
	long pid;

	if (RAW_IS_ERR(m)) {
		fail(r, "mmap2 = %ld", m);
		return 0;
	}
	if ((pid = raw_fork()) == 0) {
		s->started = 1;
		while (!s->stop) {
			s->count++;
			sys_yield();
		}
		raw_exit(0);
	}
	while (pid > 0 && !s->started)
		sys_yield();
	c0 = s->count;
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		sys_yield();
	t1 = rdtsc();
	c1 = s->count;
	s->stop = 1;
	if (!reap_child(r, "fork", pid))
		return 0;
	raw_munmap(s, 4096);
	if (c1 - c0 < (uint32_t)n / 2) {
		fail(r, "the partner yielded %u times during %d yields: no switching", c1 - c0, n);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (n + (c1 - c0)));
}

/* A page fault: the first write to each page of a fresh anonymous
 * private mapping (a zeroed frame, its page table entry). The mmap2 and
 * munmap around the writes are not timed. */
static uint32_t bench_fault(struct row *r, int n)
{
	long m = raw_mmap2(NULL, (size_t)n * 4096, 3, 0x22, -1, 0);    /* PRIVATE|ANON */
	volatile char *p = (volatile char *)m;
	uint64_t t0, t1;

	if (RAW_IS_ERR(m)) {
		fail(r, "mmap2 of %d pages = %ld", n, m);
		return 0;
	}
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		p[i * 4096] = 1;
	t1 = rdtsc();
	raw_munmap((void *)m, (size_t)n * 4096);
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* A signal sent to itself, delivered and returned from: kill, the frame
 * written on the way to user mode, the handler, rt_sigreturn through the
 * library's restorer. */
static volatile int caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

static uint32_t bench_signal(struct row *r, int n)
{
	struct sigaction sa;
	uint64_t t0, t1;
	long pid = raw_getpid();

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigaction(SIGUSR1, &sa, NULL) != 0) {
		fail(r, "sigaction failed");
		return 0;
	}
	caught = 0;
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		raw_kill((pid_t)pid, SIGUSR1);
	t1 = rdtsc();
	if (caught != n) {
		fail(r, "%d of %d signals caught", caught, n);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* ---- create+exit with many threads alive ---- */

#define SLEEPERS 10000
#define SLEEPER_STACK 256
static volatile int go, asleep;
static uint8_t *sleeper_stacks;
static int nsleepers;

static void sleeper(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&asleep, 1, __ATOMIC_SEQ_CST);
	while (!go)
		sys_futex(&go, FUTEX_WAIT, 0);
}

static uint8_t *sleeper_top(int i)
{
	return sleeper_stacks + (i + 1) * SLEEPER_STACK;
}

/* Brings the number of sleeping threads up to n. */
static bool sleepers_up_to(struct row *r, int n)
{
	uint64_t t0;

	while (nsleepers < n) {
		if (!start_thread(r, sleeper_top(nsleepers), sleeper, NULL)) {
			printf("bench: %d threads were alive when clone failed\n", nsleepers);
			return false;
		}
		nsleepers++;
	}
	for (t0 = rdtsc(); asleep < n; sys_yield())
		if (rdtsc() - t0 > DEADLINE) {
			fail(r, "%d of %d threads went to sleep", asleep, n);
			return false;
		}
	return true;
}

static int sleepers_left = -1;   /* after sleepers_end: how many did not exit */

static void sleepers_end(void)
{
	int left = 0;

	go = 1;
	sys_futex(&go, FUTEX_WAKE, 0x7fffffff);
	for (int i = 0; i < nsleepers; i++)
		if (!wait_zero(release_word(sleeper_top(i))))
			left++;
	printf("bench: %d sleeping threads woken, %d of them did not exit\n",
	       nsleepers, left);
	sleepers_left = left;
}

/* ---- main ---- */

enum { R_YIELD, R_FUTEX, R_CREATE, R_FORK, R_TLS, R_NULL, R_YIELDP, R_FAULT, R_SIGNAL,
       R_A10, R_A1000, R_A10000, NROWS };

static struct row rows[NROWS] = {
	[R_YIELD]  = { "sched_yield, 2 threads (per yield = switch)", "<= 550", 550, {0}, 0, 0 },
	[R_FUTEX]  = { "futex WAIT/WAKE ping-pong (per round trip)", "<= 3200", 3200, {0}, 0, 0 },
	[R_CREATE] = { "thread create+exit+RELEASE_VM wait", "<= 11500", 11500, {0}, 0, 0 },
	[R_FORK]   = { "fork+exit+wait4 (small process)", "<= 37500", 37500, {0}, 0, 0 },
	[R_TLS]    = { "set_thread_area + %gs reload", "<= 270", 270, {0}, 0, 0 },
	[R_NULL]   = { "getpid (bare syscall, for reference)", "-", 0, {0}, 0, 0 },
	[R_YIELDP] = { "sched_yield, 2 processes (per yield = switch)", "-", 0, {0}, 0, 0 },
	[R_FAULT]  = { "page fault (first write, anonymous page)", "-", 0, {0}, 0, 0 },
	[R_SIGNAL] = { "signal to self: kill, handler, sigreturn", "-", 0, {0}, 0, 0 },
	[R_A10]    = { "create+exit, 10 threads alive", "-", 0, {0}, 0, 0 },
	[R_A1000]  = { "create+exit, 1000 threads alive", "-", 0, {0}, 0, 0 },
	[R_A10000] = { "create+exit, 10000 threads alive", "-", 0, {0}, 0, 0 },
};

static const int alive[3] = { 10, 1000, 10000 };

/* argv[1], if given, runs just one benchmark, to profile one path:
 * null yield futex create fork yieldp fault signal alive (tls always
 * runs: the threads use its TLS entry); several names run several. make
 * bench runs them all. */
static bool want(int argc, char **argv, const char *key)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], key))
			return true;
	return argc < 2;
}

int main(int argc, char **argv)
{
	long m;

	printf("bench: pid %ld, %d runs per benchmark (after one warm-up run)\n",
	       raw_getpid(), RUNS);
	measure(&rows[R_TLS], bench_tls, 1000);
	if (rows[R_TLS].error)
		return 1;       /* the threads below need the TLS entry */
	child_tls = tls_desc;
	child_tls.base_addr = (uint32_t)thread_tls;
	if (want(argc, argv, "null"))
		measure(&rows[R_NULL], bench_null, 1000);
	if (want(argc, argv, "yield"))
		measure(&rows[R_YIELD], bench_yield, 1000);
	if (want(argc, argv, "futex"))
		measure(&rows[R_FUTEX], bench_futex, 1000);
	if (want(argc, argv, "create"))
		measure(&rows[R_CREATE], bench_create, 200);
	if (want(argc, argv, "fork"))
		measure(&rows[R_FORK], bench_fork, 100);
	if (want(argc, argv, "yieldp"))
		measure(&rows[R_YIELDP], bench_yield_proc, 1000);
	if (want(argc, argv, "fault"))
		measure(&rows[R_FAULT], bench_fault, 200);
	if (want(argc, argv, "signal"))
		measure(&rows[R_SIGNAL], bench_signal, 1000);

	m = !want(argc, argv, "alive") ? 0 : raw_mmap2(NULL, SLEEPERS * SLEEPER_STACK, 3, 0x22, -1, 0);
	if (!m) {
		/* not asked for */
	} else if (RAW_IS_ERR(m)) {
		fail(&rows[R_A10], "mmap2 of the sleepers' stacks = %ld", m);
	} else {
		sleeper_stacks = (uint8_t *)m;
		for (int i = 0; i < 3; i++) {
			struct row *r = &rows[R_A10 + i];
			printf("bench: bringing the sleeping threads up to %d\n", alive[i]);
			if (!sleepers_up_to(r, alive[i])) {
				if (!r->error)
					fail(r, "could not have %d threads alive", alive[i]);
				break;
			}
			measure(r, bench_create, 100);
		}
		sleepers_end();
	}

	printf("==== bench table ====\n");
	printf("Spindle benchmarks: QEMU -icount shift=0 -smp 1; ticks = guest TSC = guest instructions\n");
	printf("per operation; median of %d runs (after one warm-up run).\n\n", RUNS);
	print_table_head();
	for (int i = 0; i < NROWS; i++)
		print_row(&rows[i]);
	{
		uint32_t lo = UINT32_MAX, hi = 0;
		bool ok = true;
		for (int i = R_A10; i <= R_A10000; i++) {
			ok = ok && !rows[i].error && rows[i].median;
			lo = rows[i].median < lo ? rows[i].median : lo;
			hi = rows[i].median > hi ? rows[i].median : hi;
		}
		if (ok) {
			uint32_t pm = (uint32_t)((uint64_t)(hi - lo) * 1000 / lo);  /* per mille */
			char s[16];
			snprintf(s, sizeof(s), "%u.%u%%", pm / 10, pm % 10);
			printf("%-46s %9s  %-8s  %-7s  (max-min)/min of the three medians\n",
			       "create+exit spread, 10..10000 alive", s, "<= 10%",
			       pm <= 100 ? "met" : "NOT MET");
		} else {
			printf("%-46s %9s  %-8s  not measured\n", "create+exit spread, 10..10000 alive",
			       "-", "<= 10%");
		}
	}
	print_sleepers_end(sleepers_left, nsleepers);
	printf("==== end of bench table ====\n");
	return nerr || sleepers_left > 0 ? 2 : 0;
}
