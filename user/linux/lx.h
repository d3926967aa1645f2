/* user/linux/lx.h - the test framework of the linux group: programs built
 * with the host's `gcc -m32 -static` against glibc, booted as init by
 * tests/run.py like user/tests/t_*.c, printing the same lines:
 * `PASS <prog>.<case>` or `FAIL <prog>.<case>: <reason>`, then exiting 0
 * only if every case passed. Nothing here is Spindle's: only glibc and
 * POSIX, so each program runs unchanged on Linux (e.g. under qemu-i386),
 * which is how its expectations were checked. */
#ifndef LX_H
#define LX_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#ifndef LX_PROG
#error "define LX_PROG (the program's name) before including lx.h"
#endif

static const char *lx_case;
static int lx_case_failed, lx_failures;

__attribute__((format(printf, 1, 2), unused))
static void lx_fail(const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("FAIL %s.%s: %s\n", LX_PROG, lx_case, why);
	fflush(stdout);
	lx_case_failed = 1;
	lx_failures++;
}

#define TEST(name) static void test_##name(void)
#define RUN(name) lx_run(#name, test_##name)
#define FAIL(...) do { lx_fail(__VA_ARGS__); return; } while (0)
#define EXPECT(cond, ...) do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)
#define EXPECT_EQ(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
	if (a_ != b_) FAIL("%s is %lld, want %lld", #a, a_, b_); } while (0)

__attribute__((unused))
static void lx_run(const char *name, void (*fn)(void))
{
	lx_case = name;
	lx_case_failed = 0;
	fn();
	if (!lx_case_failed)
		printf("PASS %s.%s\n", LX_PROG, name);
	fflush(stdout);
}

/* CLOCK_MONOTONIC in milliseconds (for "not before" checks, never "fast
 * enough" ones). */
__attribute__((unused))
static long long lx_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* A pipe in lx_pipe_fd, or a FAIL line and -1. */
static int lx_pipe_fd[2];

__attribute__((unused))
static int lx_open_pipe(void)
{
	if (pipe(lx_pipe_fd) < 0) {
		lx_fail("pipe: %s", strerror(errno));
		return -1;
	}
	return 0;
}

__attribute__((unused))
static void lx_close_pipe(void)
{
	close(lx_pipe_fd[0]);
	close(lx_pipe_fd[1]);
}

__attribute__((unused))
static int lx_exit_code(void)
{
	return lx_failures ? 1 : 0;
}

#endif
