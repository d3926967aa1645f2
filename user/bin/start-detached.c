/* user/bin/start-detached.c - the seed's test tool (user-vm-unlock-2.5.31-A2):
 *
 *   start-detached NTHREADS [ROUNDS] [VERBOSE]
 *
 * Each round starts NTHREADS detached threads with CLONE_RELEASE_VM, each
 * on its own mmap'ed stack whose end word (newsp-4, where the thread's
 * stack starts) is set to 0x12341234; the kernel zeroes that word when
 * the thread exits. The tool waits until every word is 0, then prints
 * what the seed's transcript shows:
 *
 *   $ start-detached 1000 1 0
 *   stack end: 0x12341234
 *   started up 1000 threads!
 *   stack end after all threads exited: 0x00000000.
 *
 * With VERBOSE non-zero it also prints each thread's TID. If a word is
 * still not 0 after 10 seconds, the last line shows it and the exit
 * status is 1. Boot it as init with
 * `init=/bin/start-detached -- 1000 1 0`. */
#include "stdio.h"
#include "stdlib.h"
#include "user/tests/thr.h"

#define MAGIC 0x12341234
#define TSTACK 4096
#define FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
	       CLONE_DETACHED | CLONE_RELEASE_VM)

static int exit_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

static long number(const char *s)
{
	long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 10000000)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* One round; 0, or 1 if a word never became 0 or a clone failed. */
static int round_of(long n, bool verbose)
{
	char *stacks = thr_map((unsigned long)n * TSTACK);
	volatile int *word;
	long started = 0;
	int rc = 0;

	if (!stacks) {
		dprintf(2, "start-detached: cannot map %ld stacks\n", n);
		return 1;
	}
	for (long i = 0; i < n; i++)
		*(volatile int *)(stacks + (i + 1) * TSTACK - 4) = MAGIC;
	printf("stack end: 0x%08x\n", *(volatile int *)(stacks + TSTACK - 4));
	for (; started < n; started++) {
		char *newsp = stacks + (started + 1) * TSTACK;
		long tid = thr_clone(FLAGS, newsp, NULL, NULL, exit_fn, NULL);
		if (tid <= 0) {
			dprintf(2, "start-detached: clone: %ld\n", tid);
			rc = 1;
			break;
		}
		if (verbose)
			printf("thread %ld: tid %ld\n", started, tid);
	}
	printf("started up %ld threads!\n", started);

	/* Every word 0, or what is left after 10 s: the OR of them all. */
	long long end = thr_now_ns() + 10000000000ll;
	unsigned left;
	do {
		left = 0;
		for (long i = 0; i < started; i++) {
			word = (volatile int *)(stacks + (i + 1) * TSTACK - 4);
			left |= (unsigned)*word;
		}
		if (left)
			raw_sched_yield();
	} while (left && thr_now_ns() < end);
	printf("stack end after all threads exited: 0x%08x.\n", left);
	raw_munmap(stacks, (size_t)n * TSTACK);
	return left ? 1 : rc;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? number(argv[1]) : -1;
	long rounds = argc > 2 ? number(argv[2]) : 1;
	long verbose = argc > 3 ? number(argv[3]) : 0;
	int rc = 0;

	if (n <= 0 || rounds < 0 || verbose < 0) {
		dprintf(2, "usage: start-detached NTHREADS [ROUNDS] [VERBOSE]\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++)
		rc |= round_of(n, verbose != 0);
	return rc;
}
