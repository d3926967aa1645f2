/* user/linux/bench_lx.c - the hot paths as a Linux program pays them:
 * a static glibc binary (gcc -m32 -static), so it runs under the linux
 * personality (abi.md section 9) and would run unchanged on Linux 6.1
 * i386. Booted as init by tools/bench.sh (`make bench`) under the same
 * -icount as /bin/bench: a figure is guest instructions per operation,
 * user and kernel together, median of 5 runs after a warm-up.
 *
 * What differs from /bin/bench's rows is what glibc brings: its wrappers,
 * its thread library (NPTL), and FPU state - glibc's string functions
 * use SSE, so every thread has registers to save at each switch and to
 * copy at each clone (arch/i386/fpu.c). The clone row uses the seed's
 * SETTID and RELEASE_VM by their Linux names (CLONE_PARENT_SETTID,
 * CLONE_CHILD_CLEARTID: the same bits). docs/benchmarks.md explains each
 * row. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define RUNS 5

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

struct row {
	const char *name;
	int n;                          /* operations per run */
	uint64_t (*run)(int n);         /* ticks per operation, or 0 on failure */
	uint64_t runs[RUNS], median;
};

/* ---- sched_yield ping-pong: per switch ---- */

static volatile int ystop, ystarted;
static volatile unsigned partner_yields;

static void *yielder(void *arg)
{
	(void)arg;
	ystarted = 1;
	while (!ystop) {
		partner_yields++;
		sched_yield();
	}
	return NULL;
}

static uint64_t run_yield(int n)
{
	pthread_t t;
	unsigned y0, y1;
	uint64_t t0, t1;

	ystop = ystarted = 0;
	if (pthread_create(&t, NULL, yielder, NULL) != 0)
		return 0;
	while (!ystarted)
		sched_yield();
	y0 = partner_yields;
	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		sched_yield();
	t1 = rdtsc();
	y1 = partner_yields;
	ystop = 1;
	pthread_join(t, NULL);
	return (t1 - t0) / ((uint64_t)n + (y1 - y0));
}

/* ---- clone with the seed's flags, the child exits at once ---- */

static char child_stack[16384] __attribute__((aligned(16)));
static volatile pid_t child_tid;

static int child_exits(void *arg)
{
	(void)arg;
	syscall(SYS_exit, 0);
	return 0;
}

static uint64_t run_clone(int n)
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	uint64_t t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		int r = clone(child_exits, child_stack + sizeof(child_stack), flags, NULL,
			      &child_tid, NULL, &child_tid);
		if (r < 0)
			return 0;
		/* CLONE_CHILD_CLEARTID: 0 and a wake when the child is gone. */
		while (child_tid)
			syscall(SYS_futex, &child_tid, FUTEX_WAIT, child_tid, NULL, NULL, 0);
	}
	return (rdtsc() - t0) / (uint64_t)n;
}

/* ---- pthread_create + pthread_join ---- */

static void *returns(void *arg)
{
	return arg;
}

static uint64_t run_pthread(int n)
{
	static int token;
	uint64_t t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		pthread_t t;
		void *r = NULL;

		if (pthread_create(&t, NULL, returns, &token) != 0 || pthread_join(t, &r) != 0 ||
		    r != &token)
			return 0;
	}
	return (rdtsc() - t0) / (uint64_t)n;
}

/* ---- fork+exit+wait4 ---- */

static uint64_t run_fork(int n)
{
	uint64_t t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		int st;
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p < 0 || waitpid(p, &st, 0) != p || st != 0)
			return 0;
	}
	return (rdtsc() - t0) / (uint64_t)n;
}

static struct row rows[] = {
	{ "glibc: sched_yield ping-pong (per switch)", 1000, run_yield, {0}, 0 },
	{ "glibc: clone (thread flags) + exit", 200, run_clone, {0}, 0 },
	{ "glibc: pthread_create + pthread_join", 200, run_pthread, {0}, 0 },
	{ "glibc: fork+exit+wait4", 50, run_fork, {0}, 0 },
};

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct row *r = &rows[i];
		uint64_t sorted[RUNS];

		printf("bench_lx: running %s (%d x %d)\n", r->name, RUNS, r->n);
		r->run(r->n);                   /* the warm-up */
		for (int k = 0; k < RUNS; k++)
			r->runs[k] = r->run(r->n);
		memcpy(sorted, r->runs, sizeof(sorted));
		qsort(sorted, RUNS, sizeof(sorted[0]), cmp);
		r->median = sorted[RUNS / 2];
		failed |= sorted[0] == 0;
	}
	printf("==== bench_lx table ====\n");
	printf("%-46s %9s  %-8s  %-7s  %s\n", "benchmark", "ticks/op", "target", "result", "runs");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		if (!r->median) {
			printf("%-46s %9s  %-8s  FAILED: a call failed\n", r->name, "-", "-");
			continue;
		}
		printf("%-46s %9llu  %-8s  %-7s ", r->name, (unsigned long long)r->median, "-", "-");
		for (int k = 0; k < RUNS; k++)
			printf(" %llu", (unsigned long long)r->runs[k]);
		printf("\n");
	}
	printf("==== end of bench_lx table ====\n");
	return failed;
}
