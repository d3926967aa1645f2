/* user/tests/t_libc.c - the libc on the real kernel: malloc over brk and
 * mmap2, exit and atexit, stdio buffering, getenv, strerror, the printf
 * family, strtol, assert and abort.
 *
 * The allocator's list logic is tested on the host too
 * (tests/unit/test_libc_heap.c); here it runs on brk(2), and the exact
 * expectations are about the kernel's memory:
 *   - small blocks: memory freed is kept for reuse, so a second round of
 *     the same allocations does not move the break at all, and once all
 *     is freed the heap is a single free block (everything coalesced);
 *   - large blocks (>= MALLOC_MMAP_THRESHOLD): a mapping of their own,
 *     unmapped by free, so /proc/kstat's frames_free comes back to
 *     exactly its value before the malloc (after one warm-up round, which
 *     lets the kernel allocate the page table and VMA slab it keeps).
 *
 * The malloc cases run first, on a heap nothing else has touched. */
#define T_PROG "t_libc"
#include "t.h"
#include "thr.h"
#include "assert.h"
#include "ctype.h"
#include "limits.h"
#include "malloc.h"
#include "stdio_ext.h"
#include "unistd.h"

/* ---- malloc: small blocks on brk ---- */

#define NBLK 160

static unsigned char *blk[NBLK];
static size_t blen[NBLK];

static unsigned char pattern(size_t i, size_t j)
{
	return (unsigned char)(i * 31 + j * 7 + 1);
}

static void fill(size_t i)
{
	for (size_t j = 0; j < blen[i]; j++)
		blk[i][j] = pattern(i, j);
}

/* Index of the first block whose bytes are not its pattern, or -1. */
static long first_damaged(size_t step)
{
	for (size_t i = 0; i < NBLK; i += step)
		for (size_t j = 0; j < blen[i]; j++)
			if (blk[i][j] != pattern(i, j))
				return (long)i;
	return -1;
}

/* Sizes from 0 to just under the mmap threshold, many of them odd. */
static size_t size_for(size_t i, size_t round)
{
	static const size_t edge[] = { 0, 1, 15, 16, 17, 31, 32, 33, 4095, 4096, 4097,
				       MALLOC_MMAP_THRESHOLD - 1 };
	if (i < sizeof(edge) / sizeof(edge[0]) && round == 0)
		return edge[i];
	return (i * 577 + round * 131 + i * i * 13) % 6000;
}

TEST(malloc_many_sizes_patterns_intact)
{
	size_t heap, free_bytes, free_blocks;

	for (size_t i = 0; i < NBLK; i++) {
		blen[i] = size_for(i, 0);
		blk[i] = malloc(blen[i]);
		EXPECT(blk[i], "malloc(%zu) failed", blen[i]);
		EXPECT((uintptr_t)blk[i] % 16 == 0, "malloc(%zu) = %p: not 16-byte aligned",
		       blen[i], blk[i]);
		EXPECT(malloc_usable_size(blk[i]) >= blen[i], "usable size too small");
		fill(i);
	}
	EXPECT(first_damaged(1) < 0, "block %ld damaged after filling all", first_damaged(1));
	/* Free every other block, allocate others in the holes, check all. */
	for (size_t i = 1; i < NBLK; i += 2)
		free(blk[i]);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent after frees");
	for (size_t i = 1; i < NBLK; i += 2) {
		blen[i] = size_for(i, 1);
		blk[i] = malloc(blen[i]);
		EXPECT(blk[i], "malloc(%zu) failed in round 2", blen[i]);
		fill(i);
	}
	EXPECT(first_damaged(1) < 0, "block %ld damaged after round 2", first_damaged(1));
	for (size_t i = 0; i < NBLK; i++)
		free(blk[i]);
	EXPECT(malloc_check(&heap, &free_bytes, &free_blocks) == 0, "free list inconsistent");
	/* Nothing else has used malloc yet: all of the heap is one block. */
	EXPECT(free_blocks == 1 && free_bytes == heap,
	       "after freeing everything: %zu free blocks, %zu of %zu bytes free",
	       free_blocks, free_bytes, heap);
}

/* Allocates and frees a fixed mix of blocks. */
static bool one_round(void)
{
	for (size_t i = 0; i < 64; i++) {
		blen[i] = size_for(i + 20, 2);
		if (!(blk[i] = malloc(blen[i])))
			return false;
		fill(i);
	}
	for (size_t i = 0; i < 64; i += 2)
		free(blk[i]);
	for (size_t i = 1; i < 64; i += 2)
		free(blk[i]);
	return true;
}

TEST(freed_memory_is_reused_the_break_stays)
{
	void *p = malloc(100), *q;
	size_t heap1, heap2;
	void *brk1, *brk2;

	free(p);
	q = malloc(100);
	EXPECT(q == p, "malloc after free(%p) returned %p, not the freed block", p, q);
	free(q);

	EXPECT(one_round(), "malloc failed");
	brk1 = sbrk(0);
	malloc_check(&heap1, NULL, NULL);
	EXPECT(one_round(), "malloc failed");
	EXPECT(one_round(), "malloc failed");
	brk2 = sbrk(0);
	malloc_check(&heap2, NULL, NULL);
	EXPECT(brk1 == brk2, "the break moved from %p to %p on a repeated workload", brk1, brk2);
	EXPECT(heap1 == heap2, "the heap grew from %zu to %zu bytes", heap1, heap2);
}

TEST(neighbours_coalesce)
{
	char *a = malloc(1000), *b = malloc(1000), *c = malloc(1000), *d;

	EXPECT(a && b && c, "malloc failed");
	EXPECT(a < b && b < c, "first fit on a fresh heap: %p %p %p not in order", a, b, c);
	free(a);
	free(b);
	d = malloc(2000);       /* fits only where a and b were, merged */
	EXPECT(d == a, "malloc(2000) = %p, want %p (a and b merged)", d, a);
	free(d);
	free(c);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

TEST(malloc_zero_and_free_null)
{
	void *p = malloc(0), *q = malloc(0);

	EXPECT(p && q && p != q, "malloc(0) gave %p and %p", p, q);
	free(p);
	free(q);
	free(NULL);
}

TEST(realloc_keeps_contents)
{
	char *p = malloc(10), *q, *r;

	EXPECT(p, "malloc failed");
	memcpy(p, "0123456789", 10);
	p = realloc(p, 5000);
	EXPECT(p && memcmp(p, "0123456789", 10) == 0, "grown block lost its bytes");
	q = realloc(p, 20);
	EXPECT(q == p, "shrinking moved the block: %p -> %p", p, q);
	EXPECT(memcmp(q, "0123456789", 10) == 0, "shrunk block lost its bytes");

	/* Grows in place into the free block after it (its old tail)... */
	p = realloc(q, 200);
	EXPECT(p == q, "realloc(200) moved %p to %p though the space after it is free", q, p);
	/* ...and moves when a live block is in the way. */
	r = malloc(100);
	EXPECT(r && r > p, "malloc failed, or not after p");
	q = realloc(p, 400);
	EXPECT(q && q != p && memcmp(q, "0123456789", 10) == 0,
	       "realloc(400) with a block in the way: %p -> %p", p, q);
	p = q;

	/* Across the mmap threshold and back. */
	for (int i = 0; i < 200; i++)
		p[i] = (char)i;
	p = realloc(p, 200000);
	EXPECT(p, "realloc to 200000 failed");
	for (int i = 0; i < 200; i++)
		EXPECT(p[i] == (char)i, "byte %d lost going to a mapping", i);
	memset(p + 200, 0x5a, 200000 - 200);
	q = realloc(p, 300000);
	EXPECT(q && q[199] == (char)199 && q[199999] == 0x5a, "mapping to mapping lost bytes");
	p = realloc(q, 50);
	EXPECT(p, "realloc back to 50 failed");
	for (int i = 0; i < 50; i++)
		EXPECT(p[i] == (char)i, "byte %d lost coming back to the heap", i);
	free(r);
	EXPECT(realloc(p, 0) == NULL, "realloc(p, 0) must free p and return NULL");
	p = realloc(NULL, 30);
	EXPECT(p, "realloc(NULL, 30) failed");
	free(p);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

TEST(calloc_zeroes_and_checks_overflow)
{
	unsigned char *p = malloc(4096), *q;

	EXPECT(p, "malloc failed");
	memset(p, 0xaa, 4096);
	free(p);
	q = calloc(1, 4096);
	EXPECT(q, "calloc failed");
	for (int i = 0; i < 4096; i++)
		EXPECT(q[i] == 0, "calloc byte %d is %#x", i, q[i]);
	free(q);
	errno = 0;
	EXPECT(calloc(0x10000, 0x10001) == NULL && errno == ENOMEM,
	       "calloc overflowing size_t must fail with ENOMEM");
	errno = 0;
	EXPECT(malloc(0xf0000000u) == NULL && errno == ENOMEM, "malloc(3.75 GiB) must fail");
	errno = 0;
	EXPECT(malloc(SIZE_MAX) == NULL && errno == ENOMEM, "malloc(SIZE_MAX) must fail");
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

/* ---- malloc: large blocks on mmap2 ---- */

static long frames_free(void)
{
	struct thr_kstat k;

	return thr_kstat(&k) ? -1 : (long)k.frames_free;
}

#define BIG (1024 * 1024)

TEST(large_blocks_are_mappings_that_free_unmaps)
{
	long before = 0, mid = 0, after = 0;
	char *small = malloc(MALLOC_MMAP_THRESHOLD - 1);

	EXPECT(small && (void *)small < sbrk(0), "a block under the threshold is on the heap");
	free(small);
	/* Round 0 warms up (page table, VMA slab); round 1 is measured. */
	for (int round = 0; round < 2; round++) {
		char *p;

		before = frames_free();
		p = malloc(BIG);
		EXPECT(p, "malloc(1 MiB) failed");
		EXPECT((void *)p >= sbrk(0), "a 1 MiB block at %p is not above the break %p",
		       p, sbrk(0));
		EXPECT(malloc_usable_size(p) >= BIG, "usable size %zu", malloc_usable_size(p));
		memset(p, round + 1, BIG);
		mid = frames_free();
		free(p);
		after = frames_free();
	}
	EXPECT(before > 0, "no frames_free in /proc/kstat");
	EXPECT(before - mid >= BIG / 4096, "touching 1 MiB took %ld frames, want >= %d",
	       before - mid, BIG / 4096);
	EXPECT(after == before, "frames_free %ld before malloc, %ld after free (%+ld)",
	       before, after, after - before);
}

TEST(shrinking_a_large_block_unmaps_its_tail)
{
	char *p = malloc(BIG), *q;
	long before, after;
	/* 1 MiB + the header is 257 pages; 256 KiB + the header, 65. */
	long want = (BIG + 4096) / 4096 - (BIG / 4 + 4096) / 4096;

	EXPECT(p, "malloc(1 MiB) failed");
	memset(p, 7, BIG);
	before = frames_free();
	q = realloc(p, BIG / 4);
	after = frames_free();
	EXPECT(q == p, "realloc moved a shrinking large block: %p -> %p", p, q);
	EXPECT(q[0] == 7 && q[BIG / 4 - 1] == 7, "contents lost");
	EXPECT(after - before == want, "shrinking gave back %ld frames, want %ld",
	       after - before, want);
	free(q);
}

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
	if (thr_signal(SIGABRT, abrt_handler))
		return 1;
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
	/* The last to run: report what ran before, in the exit status. */
	_exit(strcmp(order, "321") == 0 ? 42 : 1);
}
static void h2(void) { order[norder++] = '2'; }
static void h3(void) { order[norder++] = '3'; }
static void nothing(void) { }

static int register_and_exit(long arg)
{
	(void)arg;
	if (atexit(h1) || atexit(h2) || atexit(h3))
		return 2;
	for (int i = 3; i < ATEXIT_MAX; i++)
		if (atexit(nothing))
			return 3;
	if (atexit(nothing) != -1)
		return 4;               /* the table is full */
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
	EXPECT(!fopen("/etc/motd", "w") && errno == EROFS, "fopen for writing");
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
