/* user/bench/rows.h - the results of /bin/bench (user/bin/bench.c): one
 * struct row per table line, RUNS runs each after a warm-up run, the
 * median, and the bounded poll every wait for a thread uses. */
#ifndef USER_BENCH_ROWS_H
#define USER_BENCH_ROWS_H

#include "stdio.h"
#include "string.h"
#include "user/bench/sys.h"

#define RUNS 5
#define DEADLINE 2000000000ull          /* ticks a poll may wait: 2 s of guest time */

struct row {
	const char *name;
	const char *target;             /* "<= 550" or "-" */
	uint32_t limit;                 /* 0: no target */
	uint32_t run[RUNS];
	uint32_t median;
	const char *error;              /* set: the benchmark failed */
};

static char errbuf[8][96];
static int nerr;

__attribute__((format(printf, 2, 3)))
static void fail(struct row *r, const char *fmt, ...)
{
	va_list ap;
	char *b = errbuf[nerr < 7 ? nerr++ : 7];

	va_start(ap, fmt);
	vsnprintf(b, sizeof(errbuf[0]), fmt, ap);
	va_end(ap);
	r->error = b;
	printf("bench: %s: FAILED: %s\n", r->name, b);
}

static uint32_t median(const uint32_t *v)
{
	uint32_t s[RUNS];

	memcpy(s, v, sizeof(s));
	for (int i = 1; i < RUNS; i++)
		for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
			uint32_t t = s[j]; s[j] = s[j - 1]; s[j - 1] = t;
		}
	return s[RUNS / 2];
}

/* One warm-up run, then RUNS runs; fn returns ticks per operation, or 0
 * after calling fail(). */
static void measure(struct row *r, uint32_t (*fn)(struct row *, int), int n)
{
	printf("bench: running %s (%d x %d)\n", r->name, RUNS, n);
	if (!fn(r, n))
		return;
	for (int i = 0; i < RUNS; i++)
		if (!(r->run[i] = fn(r, n)))
			return;
	r->median = median(r->run);
	printf("bench: %s: %u ticks/op (runs %u %u %u %u %u)\n", r->name, r->median,
	       r->run[0], r->run[1], r->run[2], r->run[3], r->run[4]);
}

static void print_row(const struct row *r)
{
	if (r->error) {
		printf("%-46s %9s  %-8s  FAILED: %s\n", r->name, "-", r->target, r->error);
		return;
	}
	if (!r->median) {
		printf("%-46s %9s  %-8s  not run\n", r->name, "-", r->target);
		return;
	}
	printf("%-46s %9u  %-8s  %-7s  %u %u %u %u %u\n", r->name, r->median, r->target,
	       !r->limit ? "-" : r->median <= r->limit ? "met" : "NOT MET",
	       r->run[0], r->run[1], r->run[2], r->run[3], r->run[4]);
}

/* Polls until *w is 0, yielding; false after DEADLINE ticks. */
__attribute__((unused))
static bool wait_zero(volatile int *w)
{
	uint64_t t0 = rdtsc();

	while (*w) {
		if (rdtsc() - t0 > DEADLINE)
			return false;
		sys_yield();
	}
	return true;
}

#endif
