/* user/tests/t_libc.c - the libc on the real kernel: malloc over brk and
 * mmap2 (the cases are in t_libc_malloc.h), exit and atexit, stdio
 * buffering, getenv, strerror, the printf family, strtol, assert and
 * abort.
 *
 * The malloc cases run first, on a heap nothing else has touched. */
#define T_PROG "t_libc"
#include "t.h"
#include "thr.h"
#include "assert.h"
#include "ctype.h"
#include "limits.h"
#include "stdio_ext.h"
#include "unistd.h"
#include "t_libc_malloc.h"

/* ---- misuse aborts ---- */

static unsigned char not_from_malloc[64] __attribute__((aligned(16)));

static int free_stray(long arg)
{
	(void)arg;
	free(not_from_malloc + 32);
	return 0;               /* must not get here */
}

static int free_twice(long arg)
{
	void *p = malloc(48);

	(void)arg;
	free(p);
	free(p);
	return 0;
}

TEST(bad_free_aborts)
{
	EXPECT_STATUS(child_status(free_stray, 0), KILLED(SIGABRT));
	EXPECT_STATUS(child_status(free_twice, 0), KILLED(SIGABRT));
}

static int failing_assert(long arg)
{
	assert(arg == 3);
	return 0;
}

static int passing_assert(long arg)
{
	assert(arg == 3);
	return 7;
}

TEST(assert_aborts_with_sigabrt)
{
	EXPECT_STATUS(child_status(failing_assert, 2), KILLED(SIGABRT));
	EXPECT_STATUS(child_status(passing_assert, 3), EXITED(7));
}

static volatile int abrt_caught;

static void abrt_handler(int sig)
{
	(void)sig;
	abrt_caught++;
}

static int abort_despite_handler(long arg)
{
	(void)arg;
	CHECK(thr_signal(SIGABRT, abrt_handler) == 0);
	abort();
}

TEST(abort_kills_even_when_sigabrt_is_caught)
{
	EXPECT_STATUS(child_status(abort_despite_handler, 0), KILLED(SIGABRT));
}

/* ---- exit and atexit ---- */

static char order[8];
static int norder;

static void h1(void)
{
	order[norder++] = '1';
	/* The last to run: what ran before, then the status the parent
	 * waits for. */
	CHECK(strcmp(order, "321") == 0);
	_exit(42);
}
static void h2(void) { order[norder++] = '2'; }
static void h3(void) { order[norder++] = '3'; }
static void nothing(void) { }

static int register_and_exit(long arg)
{
	(void)arg;
	CHECK(atexit(h1) == 0 && atexit(h2) == 0 && atexit(h3) == 0);
	for (int i = 3; i < ATEXIT_MAX; i++)
		CHECK(atexit(nothing) == 0);
	CHECK(atexit(nothing) == -1);           /* the table is full */
	exit(0);
}

TEST(atexit_handlers_run_last_first)
{
	EXPECT_STATUS(child_status(register_and_exit, 0), EXITED(42));
}

static int exit_code_is_masked(long arg)
{
	exit((int)arg);
}

TEST(exit_status)
{
	EXPECT_STATUS(child_status(exit_code_is_masked, 0x1234), EXITED(0x34));
}

/* A child sharing our memory (CLONE_VM, its own thread group) calls
 * exit(): the flush it does empties OUR stdout buffer, where the start
 * of a line is waiting. */
static char child_stack[16384] __attribute__((aligned(16)));

static int exit_in_shared_memory(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	exit(0);
}

TEST(exit_flushes_stdout)
{
	static const char start[] = "t_libc: this line is ended by a child's exit()";
	size_t pending, left;
	int st = -1;
	long pid;

	fputs(start, stdout);
	pending = __fpending(stdout);
	pid = thr_clone(CLONE_VM | SIGCHLD, child_stack + sizeof(child_stack), NULL, NULL,
			exit_in_shared_memory, NULL);
	if (pid > 0)
		raw_wait4(pid, &st, 0, NULL);
	left = __fpending(stdout);
	putchar('\n');
	EXPECT(pid > 0, "clone: %s", t_val(pid, t_b1_));
	EXPECT(pending == strlen(start), "%zu bytes pending before exit, want %zu", pending,
	       strlen(start));
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(left == 0, "%zu bytes still pending after exit()", left);
}

/* ---- stdio ---- */

TEST(stdout_is_line_buffered)
{
	size_t a, b, c, d;

	EXPECT(__flbf(stdout), "stdout is not line buffered");
	fputs("t_libc: line ", stdout);
	a = __fpending(stdout);
	printf("buffering %d", 1);
	b = __fpending(stdout);
	putchar('\n');
	c = __fpending(stdout);
	printf("t_libc: two lines\nt_libc: in one printf\n");
	d = __fpending(stdout);
	EXPECT(a == 13, "after fputs: %zu pending, want 13", a);
	EXPECT(b == 24, "after printf: %zu pending, want 24", b);
	EXPECT(c == 0, "after the newline: %zu pending, want 0", c);
	EXPECT(d == 0, "after a printf ending a line: %zu pending", d);
	EXPECT(fflush(stdout) == 0, "fflush failed");
}

TEST(stderr_is_unbuffered)
{
	size_t pending;
	int n;

	fputs("t_libc: stderr ", stderr);
	pending = __fpending(stderr);
	n = fprintf(stderr, "is %s\n", "unbuffered");
	EXPECT(pending == 0, "%zu bytes pending on stderr", pending);
	EXPECT(n == 14, "fprintf returned %d, want 14", n);
}

TEST(fopen_fgets_read_a_file)
{
	static char raw[4096], cooked[4096];
	char line[100];
	long fd = raw_open("/etc/motd", 0), n = 0, r;
	size_t len = 0;
	int lines = 0;
	FILE *f;

	EXPECT(fd >= 0, "open /etc/motd: %s", t_val(fd, t_b1_));
	while ((r = raw_read((int)fd, raw + n, sizeof(raw) - 1 - (size_t)n)) > 0)
		n += r;
	raw_close((int)fd);

	f = fopen("/etc/motd", "r");
	EXPECT(f, "fopen: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		strcpy(cooked + len, line);
		len += strlen(line);
		lines++;
	}
	EXPECT(feof(f) && !ferror(f), "fgets stopped without end of file");
	EXPECT(fgetc(f) == EOF, "end of file is not sticky");
	EXPECT(fclose(f) == 0, "fclose failed");
	EXPECT((long)len == n && memcmp(raw, cooked, len) == 0,
	       "fgets read %zu bytes, read(2) %ld, or they differ", len, n);
	EXPECT(lines >= 2 && strncmp(cooked, "Welcome to Spindle", 18) == 0,
	       "unexpected /etc/motd: %d lines", lines);

	f = fopen("/etc/motd", "r");
	EXPECT(f && fgetc(f) == 'W' && ungetc('w', f) == 'w' && fgetc(f) == 'w' &&
	       fgetc(f) == 'e', "fgetc/ungetc");
	fclose(f);
	errno = 0;
	EXPECT(!fopen("/no/such/file", "r") && errno == ENOENT, "fopen of a missing file");
	errno = 0;
	EXPECT(!fopen("/etc", "w") && errno == EISDIR, "fopen of a directory for writing");
}

/* ---- the rest ---- */

TEST(getenv_reads_environ)
{
	/* As init, the kernel's environment (kernel/init.c). */
	const char *path = getenv("PATH"), *home = getenv("HOME");

	EXPECT(path && strcmp(path, "/bin") == 0, "PATH is %s", path ? path : "unset");
	EXPECT(home && strcmp(home, "/") == 0, "HOME is %s", home ? home : "unset");
	EXPECT(getenv("PAT") == NULL, "a prefix of a name matched");
	EXPECT(getenv("PATH=") == NULL, "a name with '=' matched");
	EXPECT(getenv("") == NULL && getenv("NO_SUCH_VARIABLE") == NULL, "found a missing one");
}

TEST(strerror_and_strsignal)
{
	EXPECT(strcmp(strerror(ENOENT), "No such file or directory") == 0, "%s", strerror(ENOENT));
	EXPECT(strcmp(strerror(EINVAL), "Invalid argument") == 0, "%s", strerror(EINVAL));
	EXPECT(strcmp(strerror(ETIMEDOUT), "Connection timed out") == 0, "ETIMEDOUT");
	EXPECT(strcmp(strerror(0), "Success") == 0, "0");
	EXPECT(strcmp(strerror(999), "Unknown error 999") == 0, "%s", strerror(999));
	EXPECT(strcmp(strerror(-3), "Unknown error -3") == 0, "%s", strerror(-3));
	EXPECT(strcmp(strsignal(SIGSEGV), "Segmentation fault") == 0, "%s", strsignal(SIGSEGV));
	EXPECT(strcmp(strsignal(SIGABRT), "Aborted") == 0, "%s", strsignal(SIGABRT));
	EXPECT(strcmp(strsignal(99), "Unknown signal 99") == 0, "%s", strsignal(99));
}

TEST(printf_family)
{
	char buf[64];

	EXPECT(snprintf(buf, 8, "%s-%d", "abcdef", 123) == 10, "snprintf's count");
	EXPECT(strcmp(buf, "abcdef-") == 0, "truncated to %s", buf);
	EXPECT(snprintf(NULL, 0, "%d", 12345) == 5, "snprintf(NULL, 0)");
	EXPECT(sprintf(buf, "%5.2s|%-4d|%x|%c", "xyz", 7, 255, '!') == 15, "sprintf's count");
	EXPECT(strcmp(buf, "   xy|7   |ff|!") == 0, "sprintf gave \"%s\"", buf);
	EXPECT(printf("t_libc: printf returns %d\n", 26) == 26, "printf's count");
}

TEST(strtol_on_32_bits)
{
	char *end;

	errno = 0;
	EXPECT(strtol("2147483647", NULL, 10) == LONG_MAX && errno == 0, "LONG_MAX");
	EXPECT(strtol("2147483648", NULL, 10) == LONG_MAX && errno == ERANGE, "LONG_MAX + 1");
	errno = 0;
	EXPECT(strtol("-2147483648", NULL, 10) == LONG_MIN && errno == 0, "LONG_MIN");
	EXPECT(strtol("-2147483649", NULL, 10) == LONG_MIN && errno == ERANGE, "LONG_MIN - 1");
	errno = 0;
	EXPECT(strtoul("4294967295", NULL, 10) == ULONG_MAX && errno == 0, "ULONG_MAX");
	EXPECT(strtoul("4294967296", NULL, 10) == ULONG_MAX && errno == ERANGE, "ULONG_MAX + 1");
	errno = 0;
	EXPECT(strtoul("-1", NULL, 10) == ULONG_MAX && errno == 0, "strtoul(\"-1\")");
	EXPECT(strtoll("9223372036854775807", NULL, 10) == LLONG_MAX && errno == 0, "LLONG_MAX");
	EXPECT(strtol("  0x1fZ", &end, 0) == 31 && *end == 'Z', "hex, base 0");
	EXPECT(strtol("0777", NULL, 0) == 511, "octal, base 0");
	EXPECT(strtol("zz", NULL, 36) == 1295, "base 36");
	EXPECT(strtol("  +", &end, 10) == 0 && *end == ' ', "no digits: end at the start");
	EXPECT(atoi("  -42abc") == -42, "atoi");
}

static const char nul_inside[] = "abc\0def";

TEST(string_functions)
{
	char buf[32], *save, *dup;

	EXPECT(strcpy(buf, "abc") == buf && strcmp(buf, "abc") == 0, "strcpy");
	EXPECT(strcat(buf, "def") == buf && strcmp(buf, "abcdef") == 0, "strcat");
	EXPECT(strcmp(strncat(buf, "ghijk", 2), "abcdefgh") == 0, "strncat");
	memset(buf, 'x', sizeof(buf));
	strncpy(buf, "ab", 5);
	EXPECT(memcmp(buf, "ab\0\0\0x", 6) == 0, "strncpy pads with NULs, no further");
	strncpy(buf, "abcdef", 3);
	EXPECT(memcmp(buf, "abc\0", 4) == 0, "strncpy does not terminate");
	dup = strdup("copy me");
	EXPECT(dup && strcmp(dup, "copy me") == 0, "strdup");
	free(dup);
	EXPECT(strcmp(strstr("hello world", "o w"), "o world") == 0, "strstr");
	EXPECT(strstr("abc", "abd") == NULL, "strstr miss");
	EXPECT(strspn("aabbcx", "abc") == 5 && strcspn("hello, you", ", ") == 5, "strspn/strcspn");
	strcpy(buf, "  one two,,three ");
	EXPECT(strcmp(strtok_r(buf, " ,", &save), "one") == 0, "strtok_r 1");
	EXPECT(strcmp(strtok_r(NULL, " ,", &save), "two") == 0, "strtok_r 2");
	EXPECT(strcmp(strtok_r(NULL, " ,", &save), "three") == 0, "strtok_r 3");
	EXPECT(strtok_r(NULL, " ,", &save) == NULL, "strtok_r end");
	EXPECT(memchr(nul_inside, 'e', 7) == nul_inside + 5, "memchr looks past a NUL");
	EXPECT(memchr(nul_inside, 'e', 5) == NULL, "memchr looks too far");
}

TEST(ctype_c_locale)
{
	EXPECT(isdigit('5') && !isdigit('a') && !isdigit(EOF), "isdigit");
	EXPECT(isspace('\v') && isspace(' ') && !isspace('x'), "isspace");
	EXPECT(toupper('q') == 'Q' && tolower('Q') == 'q' && toupper('1') == '1', "case");
	EXPECT(!isalpha(200) && !isprint(200), "bytes above 127 are in no class");
	EXPECT(isxdigit('F') && !isxdigit('g') && ispunct('!') && !ispunct('a'), "classes");
}

int main(void)
{
	/* The heap must be untouched for the first case. */
	RUN(malloc_many_sizes_patterns_intact);
	RUN(freed_memory_is_reused_the_break_stays);
	RUN(neighbours_coalesce);
	RUN(malloc_zero_and_free_null);
	RUN(realloc_keeps_contents);
	RUN(calloc_zeroes_and_checks_overflow);
	RUN(large_blocks_are_mappings_that_free_unmaps);
	RUN(shrinking_a_large_block_unmaps_its_tail);
	RUN(bad_free_aborts);
	RUN(assert_aborts_with_sigabrt);
	RUN(abort_kills_even_when_sigabrt_is_caught);
	RUN(atexit_handlers_run_last_first);
	RUN(exit_status);
	RUN(exit_flushes_stdout);
	RUN(stdout_is_line_buffered);
	RUN(stderr_is_unbuffered);
	RUN(fopen_fgets_read_a_file);
	RUN(getenv_reads_environ);
	RUN(strerror_and_strsignal);
	RUN(printf_family);
	RUN(strtol_on_32_bits);
	RUN(string_functions);
	RUN(ctype_c_locale);
	return t_exit_code();
}
