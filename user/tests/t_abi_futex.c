/* user/tests/t_abi_futex.c - abi.md section 6 where t_futex and
 * t_smp_futex do not look:
 *   - a futex is any aligned word of mapped memory: WAIT and WAKE work on
 *     anonymous and .bss pages never touched before (demand zero: the
 *     word is 0), on read-only pages, and on a MAP_SHARED page that
 *     neither process touched before the fork ("keyed by the physical
 *     address, so futexes work across address spaces that share the
 *     page"); only "unmapped" is -EFAULT;
 *   - WAIT compares all 32 bits of the word;
 *   - "WAKE wakes up to val waiters and returns how many": a waiter that
 *     left by its timeout, by a signal (-EINTR), or because its process
 *     was killed is no longer one, and is not counted.
 * Booted as init. */
#define T_PROG "t_abi_futex"
#include "t.h"
#include "thr.h"

#define STACK 16384
static char stk[STACK] __attribute__((aligned(16)));

static const struct timespec ms1 = { 0, 1000000 };

static long fwait(void *u, int val, const struct timespec *ts)
{
	return raw_futex((int *)u, FUTEX_WAIT, val, ts);
}

static long fwake(void *u, int n)
{
	return raw_futex((int *)u, FUTEX_WAKE, n, NULL);
}

static char bss_pages[2 * PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

TEST(untouched_and_read_only_pages_are_futexes)
{
	long p = raw_mmap2(NULL, 2 * PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", p);
	/* never touched: the word reads 0 */
	EXPECT_EQ(fwake((void *)(p + 64), 1), 0);
	EXPECT_EQ(fwait((void *)(p + PAGE_SIZE + 8), 1, &ms1), -EAGAIN);
	EXPECT_EQ(fwait((void *)(p + PAGE_SIZE + 12), 0, &ms1), -ETIMEDOUT);
	EXPECT_EQ(fwait(bss_pages + PAGE_SIZE + 4, 0, &ms1), -ETIMEDOUT);
	EXPECT_EQ(fwake(bss_pages + 8, 1), 0);
	/* read-only */
	*(volatile int *)p = 5;
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(fwait((void *)p, 4, &ms1), -EAGAIN);
	EXPECT_EQ(fwait((void *)p, 5, &ms1), -ETIMEDOUT);
	EXPECT_EQ(fwake((void *)p, 1), 0);
	EXPECT_EQ(raw_munmap((void *)p, 2 * PAGE_SIZE), 0);
	EXPECT_EQ(fwake((void *)p, 1), -EFAULT);        /* now it is unmapped */
}

TEST(wait_compares_all_32_bits)
{
	static int word;

	word = (int)0xffffffffu;
	EXPECT_EQ(fwait(&word, 0x7fffffff, &ms1), -EAGAIN);
	EXPECT_EQ(fwait(&word, 0xffff, &ms1), -EAGAIN);
	EXPECT_EQ(fwait(&word, -1, &ms1), -ETIMEDOUT);
	word = 0x10000;
	EXPECT_EQ(fwait(&word, 0, &ms1), -EAGAIN);
}

/* A child waits on the untouched shared word (up to 20 s) and exits with
 * -result: 0 if woken. */
static int wait_shared(long addr)
{
	struct timespec ts = { 20, 0 };

	return (int)-fwait((void *)addr, 0, &ts);
}

TEST(untouched_shared_page_is_one_futex_in_two_processes)
{
	long p = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st = -1;

	EXPECT(!RAW_IS_ERR(p), "mmap2(MAP_SHARED): %ld", p);
	long pid = raw_fork();                  /* neither side touched it */
	if (pid == 0)
		raw_exit_group(wait_shared(p + 128));
	EXPECT(pid > 0, "fork: %ld", pid);
	bool slept = thr_wait_sleeping((int)pid, 20000);
	long woke = 0;
	for (int i = 0; i < 2000 && woke == 0; i++) {   /* until it is queued */
		woke = fwake((void *)(p + 128), 1);
		if (woke == 0)
			thr_sleep_ms(5);
	}
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT(slept, "the child never slept");
	EXPECT_EQ(woke, 1);
	EXPECT_STATUS(st, EXITED(0));           /* 110: timed out, never woken */
	raw_munmap((void *)p, PAGE_SIZE);
}

/* ---- waiters that left ---- */

static volatile int hits;
static void on_usr1(int sig) { (void)sig; hits++; }

struct waiter { int word; volatile int ready; volatile long result; struct timespec ts; };

static int waiter_fn(void *arg, const struct thr_regs *r)
{
	struct waiter *w = arg;

	(void)r;
	w->ready = 1;
	w->result = fwait(&w->word, 0, &w->ts);
	return 0;
}

TEST(a_waiter_gone_by_timeout_or_signal_is_not_counted)
{
	static struct waiter w;
	int st;

	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	/* timeout */
	w = (struct waiter){ 0, 0, 1, { 0, 20000000 } };
	long tid = thr_clone(THR_THREAD_FLAGS, stk + STACK, NULL, NULL, waiter_fn, &w);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_EQ(w.result, -ETIMEDOUT);
	EXPECT_EQ(fwake(&w.word, 1), 0);
	/* signal */
	w = (struct waiter){ 0, 0, 1, { 20, 0 } };
	hits = 0;
	tid = thr_clone(THR_THREAD_FLAGS, stk + STACK, NULL, NULL, waiter_fn, &w);
	EXPECT(tid > 1, "clone: %ld", tid);
	bool slept = thr_wait_word(&w.ready, 1, 20000) && thr_wait_sleeping((int)tid, 20000);
	raw_tgkill((int)raw_getpid(), (int)tid, SIGUSR1);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT(slept, "the waiter never slept");
	EXPECT_EQ(w.result, -EINTR);
	EXPECT_EQ(fwake(&w.word, 1), 0);
	EXPECT_EQ(thr_signal(SIGUSR1, SIG_DFL), 0);
}

/* A process asleep on a shared word, killed: the word has no waiter. */
static int sleep_on(long addr)
{
	for (;;)
		fwait((void *)addr, 0, NULL);
	return 0;
}

TEST(a_waiter_whose_process_was_killed_is_not_counted)
{
	long p = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st = -1;

	EXPECT(!RAW_IS_ERR(p), "mmap2(MAP_SHARED): %ld", p);
	*(volatile int *)p = 0;
	for (int round = 0; round < 2; round++) {
		long pid = raw_fork();
		if (pid == 0)
			raw_exit_group(sleep_on(p));
		EXPECT(pid > 0, "fork: %ld", pid);
		bool slept = thr_wait_sleeping((int)pid, 20000);
		EXPECT_EQ(raw_kill((int)pid, round ? SIGTERM : SIGKILL), 0);
		EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
		EXPECT(slept, "the child never slept");
		EXPECT_STATUS(st, KILLED(round ? SIGTERM : SIGKILL));
		EXPECT_EQ(fwake((void *)p, 10), 0);
	}
	raw_munmap((void *)p, PAGE_SIZE);
}

int main(void)
{
	RUN(untouched_and_read_only_pages_are_futexes);
	RUN(wait_compares_all_32_bits);
	RUN(untouched_shared_page_is_one_futex_in_two_processes);
	RUN(a_waiter_gone_by_timeout_or_signal_is_not_counted);
	RUN(a_waiter_whose_process_was_killed_is_not_counted);
	return t_exit_code();
}
