/* user/bench/common.h - what /bin/bench (user/bin/bench.c) and /bin/bench_pt
 * (user/bin/bench_pt.c) measure and print alike: the two rows both tables
 * have, timed the same way in both (a bare getpid, fork+exit+wait4, each
 * through sys.h's inline int $0x80), the reaping of a measured child, the
 * heading of the table and the line about the sleeping threads that
 * closes it. The rows themselves, RUNS runs and the median are rows.h's. */
#ifndef USER_BENCH_COMMON_H
#define USER_BENCH_COMMON_H

#include "stdio.h"
#include "raw.h"
#include "user/bench/sys.h"
#include "user/bench/rows.h"

/* getpid: the bare cost of a system call, for reading the others. */
static uint32_t bench_null(struct row *r, int n)
{
	uint64_t t0, t1;
	long pid = 0;

	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		__asm__ volatile("int $0x80" : "=a"(pid) : "0"(SYS_getpid) : "memory");
	t1 = rdtsc();
	if (pid <= 0) {
		fail(r, "getpid = %ld", pid);
		return 0;
	}
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* The second half of a measured child: pid is what call ("fork",
 * "clone") returned, and wait4 must reap the child, exited with 0; false
 * after fail(). Always inlined, so that it adds no call to a measured
 * loop. */
__attribute__((always_inline))
static inline bool reap_child(struct row *r, const char *call, long pid)
{
	long w;
	int st;

	if (pid < 0) {
		fail(r, "%s = %ld", call, pid);
		return false;
	}
	if ((w = sys_wait4(pid, &st)) != pid || st != 0) {
		fail(r, "wait4(%ld) = %ld, status %#x", pid, w, st);
		return false;
	}
	return true;
}

/* fork + exit + wait4 of a child that touches nothing (sys_fork_exit). */
static uint32_t bench_fork(struct row *r, int n)
{
	uint64_t t0, t1;

	t0 = rdtsc();
	for (int i = 0; i < n; i++)
		if (!reap_child(r, "fork", sys_fork_exit()))
			return 0;
	t1 = rdtsc();
	return (uint32_t)((t1 - t0) / (uint64_t)n);
}

/* The column heads; print_row (rows.h) prints the rows under them. */
static void print_table_head(void)
{
	printf("%-46s %9s  %-8s  %-7s  %s\n", "benchmark", "ticks/op", "target", "result",
	       "runs");
}

/* How the nsleepers sleeping threads ended: left of them did not exit
 * once woken (a failure), or all did; nothing if none were started
 * (left < 0). */
static void print_sleepers_end(int left, int nsleepers)
{
	if (left > 0)
		printf("FAILED: %d of the %d sleeping threads did not exit once woken\n",
		       left, nsleepers);
	else if (left == 0)
		printf("(the %d sleeping threads were then woken, and all exited)\n", nsleepers);
}

#endif
