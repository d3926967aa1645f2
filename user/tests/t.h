/* user/tests/t.h - the little test framework of the in-guest test programs.
 *
 * A test program is booted as init (pid 1) by tests/run.py and prints one
 * line per case, `PASS <prog>.<case>` or `FAIL <prog>.<case>: <reason>`,
 * then exits 0 if every case passed and 1 otherwise. Define T_PROG before
 * including this file, write cases with TEST(), run them with RUN():
 *
 *     #define T_PROG "t_fork"
 *     #include "t.h"
 *
 *     TEST(wait_status)
 *     {
 *         long pid = raw_fork();
 *         ...
 *         EXPECT_EQ(raw_wait4(pid, &st, 0, 0), pid);
 *     }
 *
 *     int main(void) { RUN(wait_status); return t_exit_code(); }
 *
 * The EXPECT macros print the FAIL line and leave the case at the first
 * failed check (a case stops at its first failure; the next case runs):
 * the rule of every test dialect here, docs/contributing.md "Tests".
 * A case that ends without a failure prints PASS. Children forked by a
 * case report through their exit status (child_status() and
 * EXPECT_STATUS), never by printing results.
 *
 * Where the test programs are: every user/tests/NAME.c is /tests/NAME in
 * the initrd (user/Makefile.inc), apart from the commands in /bin. A test
 * that executes or opens another (its _child helper, itself, a bad_*
 * executable) names it by absolute path under T_DIR: T_DIR "t_exec_child"
 * is "/tests/t_exec_child". */
#ifndef USER_TESTS_T_H
#define USER_TESTS_T_H

#define T_DIR "/tests/"

#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "raw.h"
#include "sys/wait.h"

#ifndef T_PROG
#error "define T_PROG (the program's name) before including t.h"
#endif

static const char *t_case;      /* the case being run */
static bool t_case_failed;
static int t_failures;

__attribute__((format(printf, 1, 2), unused))
static void t_fail(const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	printf("FAIL %s.%s: %s\n", T_PROG, t_case, why);
	t_case_failed = true;
	t_failures++;
}

#define TEST(name) static void test_##name(void)
#define RUN(name) t_run(#name, test_##name)

__attribute__((unused))
static void t_run(const char *name, void (*fn)(void))
{
	t_case = name;
	t_case_failed = false;
	fn();
	if (!t_case_failed)
		printf("PASS %s.%s\n", T_PROG, name);
}

__attribute__((unused))
static int t_exit_code(void)
{
	return t_failures ? 1 : 0;
}

/* Fails the case (and returns from it) with a printf-style reason. */
#define FAIL(...) do { t_fail(__VA_ARGS__); return; } while (0)

#define EXPECT(cond, ...) do { if (!(cond)) FAIL(__VA_ARGS__); } while (0)

/* A value as a long long for comparing and printing: 64-bit integers as
 * they are, anything narrower (pointers, uintptr_t, unsigned) through
 * long, so that a raw result in an unsigned variable still compares equal
 * to -EINVAL. */
#define T_WIDEN(x) _Generic((x), \
	long long: (long long)(x), \
	unsigned long long: (long long)(x), \
	default: (long long)(long)(x))

/* got == want for integers up to 64 bits (syscall results, -errno
 * included; signal masks). */
#define EXPECT_EQ(got, want) do { \
	long long t_g_ = T_WIDEN(got), t_w_ = T_WIDEN(want); \
	if (t_g_ != t_w_) \
		FAIL("%s = %s, want %s", #got, t_val(t_g_, t_b1_), t_val(t_w_, t_b2_)); \
} while (0)

/* t_val formats a value for a FAIL line: small negatives are named as
 * -errno, the rest in decimal and hex. */
static char t_b1_[48] __attribute__((unused)), t_b2_[48] __attribute__((unused));

__attribute__((unused))
static const char *t_errname(long e)
{
	static const char *const names[] = {
		[EPERM] = "EPERM", [ENOENT] = "ENOENT", [ESRCH] = "ESRCH",
		[EINTR] = "EINTR", [EIO] = "EIO", [E2BIG] = "E2BIG",
		[ENOEXEC] = "ENOEXEC", [EBADF] = "EBADF", [ECHILD] = "ECHILD",
		[EAGAIN] = "EAGAIN", [ENOMEM] = "ENOMEM", [EACCES] = "EACCES",
		[EFAULT] = "EFAULT", [EBUSY] = "EBUSY", [EEXIST] = "EEXIST",
		[ENOTDIR] = "ENOTDIR", [EISDIR] = "EISDIR", [EINVAL] = "EINVAL",
		[EMFILE] = "EMFILE", [ENOSPC] = "ENOSPC", [ESPIPE] = "ESPIPE",
		[ERANGE] = "ERANGE", [ENAMETOOLONG] = "ENAMETOOLONG",
		[ENOSYS] = "ENOSYS", [ETIMEDOUT] = "ETIMEDOUT", [EXDEV] = "EXDEV",
		[ENOTTY] = "ENOTTY", [EFBIG] = "EFBIG", [EPIPE] = "EPIPE",
		[ENOTEMPTY] = "ENOTEMPTY", [ELOOP] = "ELOOP", [EOVERFLOW] = "EOVERFLOW",
		[EROFS] = "EROFS",
	};
	if (e > 0 && e < (long)(sizeof(names) / sizeof(names[0])) && names[e])
		return names[e];
	return NULL;
}

#define t_val(v, buf) t_val_(T_WIDEN(v), (buf))

__attribute__((unused))
static const char *t_val_(long long v, char *buf)
{
	const char *name = v < 0 && v > -4096 ? t_errname((long)-v) : NULL;

	if (name)
		snprintf(buf, 48, "-%s", name);
	else if (v < 0 && v > -4096)
		snprintf(buf, 48, "%lld", v);
	else if (v >= -0x80000000LL && v <= 0x7fffffffLL)
		snprintf(buf, 48, "%ld (%#lx)", (long)v, (unsigned long)v);
	else
		snprintf(buf, 48, "%lld (%#llx)", v, (unsigned long long)v);
	return buf;
}

/* addr as a pointer the compiler knows nothing about: a test that
 * dereferences NULL or a kernel address means it (gcc would otherwise
 * replace a NULL dereference by a trap of its own). */
__attribute__((unused))
static inline void *opaque(uintptr_t addr)
{
	__asm__("" : "+r"(addr));
	return (void *)addr;
}

/* ---- children ---- */

/* A forked child's check. A child cannot FAIL its parent's case, so on a
 * false cond it prints where and what, under the case's name, and exits
 * T_CHILD_FAILED; the parent's EXPECT_STATUS then fails the case, and
 * make check adds the child's line to that FAIL line (tests/user_tests.py,
 * CHILD_CHECK_RE). Not in a CLONE_VM thread: exit_group would end the
 * whole test program; a thread reports through memory. */
#define T_CHILD_FAILED 126
#define CHECK(cond) do { \
	if (!(cond)) \
		t_child_failed(__FILE__, __LINE__, "CHECK(" #cond ") failed"); \
} while (0)
/* A child that should have been killed before this point (a fault, a
 * signal): why it should not be here. */
#define NOT_REACHED(why) t_child_failed(__FILE__, __LINE__, "reached, but " why)

__attribute__((unused, noreturn))
static void t_child_failed(const char *file, int line, const char *what)
{
	char msg[256];
	int n = snprintf(msg, sizeof(msg), "  %s.%s: in a child, %s:%d: %s\n",
			 T_PROG, t_case, file, line, what);

	/* Straight to the console: the child's stdio buffer would be lost
	 * at exit_group. */
	raw_write(1, msg, n < (int)sizeof(msg) ? (size_t)n : sizeof(msg) - 1);
	for (;;)
		raw_exit_group(T_CHILD_FAILED);
}

/* A wait status in words, for FAIL lines. */
__attribute__((unused))
static const char *t_status_str(long st, char *buf)
{
	if (st < 0)
		return t_val(st, buf);
	if (WIFEXITED(st) && WEXITSTATUS(st) == T_CHILD_FAILED)
		snprintf(buf, 48, "%#lx (a check failed in the child)", st);
	else if (WIFEXITED(st))
		snprintf(buf, 48, "%#lx (exited %ld)", st, (long)WEXITSTATUS(st));
	else
		snprintf(buf, 48, "%#lx (killed by signal %ld)", st, (long)WTERMSIG(st));
	return buf;
}

#define EXITED(code) (((code) & 0xff) << 8)   /* abi.md section 3 */
#define KILLED(sig)  (sig)

/* Runs fn(arg) in a forked child that exits with its return value, and
 * waits for it. Returns the wait status, or -errno if fork or wait4
 * failed (statuses are never negative). */
__attribute__((unused))
static long child_status(int (*fn)(long arg), long arg)
{
	int st = -1;
	long pid = raw_fork();

	if (pid < 0)
		return pid;
	if (pid == 0)
		for (;;)
			raw_exit_group(fn(arg));
	long r = raw_wait4(pid, &st, 0, NULL);
	if (r != pid)
		return r < 0 ? r : -EINVAL;
	return st;
}

#define EXPECT_STATUS(st, want) do { \
	long t_s_ = (st), t_ws_ = (want); \
	if (t_s_ != t_ws_) \
		FAIL("%s: wait status %s, want %s", #st, t_status_str(t_s_, t_b1_), \
		     t_status_str(t_ws_, t_b2_)); \
} while (0)

#endif
