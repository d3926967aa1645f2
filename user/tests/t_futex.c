/* user/tests/t_futex.c - FUTEX_WAIT and FUTEX_WAKE (abi.md section 6):
 * the error cases, timeouts measured on CLOCK_MONOTONIC, FUTEX_PRIVATE_FLAG,
 * WAKE's count, -EINTR, no lost wake-ups (10,000 ping-pong rounds), a
 * futex mutex (Drepper's "Futexes Are Tricky", mutex 2) keeping 8 x 10,000
 * increments exact, and keys: another word, or a private page copied by
 * fork, is another futex; a waiter whose page moves (copy-on-write after a
 * fork) is still woken; a MAP_SHARED page is one futex in two processes. Threads are CLONE_VM threads. Booted as init. */
#define T_PROG "t_futex"
#include "t.h"
#include "thr.h"

#define NTHR 8
#define STACK 16384
static char stk[NTHR][STACK] __attribute__((aligned(16)));

static long start(int i, thr_fn fn, void *arg)
{
	return thr_clone(THR_THREAD_FLAGS, stk[i] + STACK, NULL, NULL, fn, arg);
}

/* The thread's exit status, or -errno. */
static long join(long tid)
{
	int st = -1;
	long r = raw_wait4((int)tid, &st, __WCLONE, NULL);

	return r == tid ? st : (r < 0 ? r : -EINVAL);
}

static long fwait(volatile int *u, int val, const struct timespec *ts)
{
	return raw_futex((int *)u, FUTEX_WAIT, val, ts);
}

static long fwake(volatile int *u, int n)
{
	return raw_futex((int *)u, FUTEX_WAKE, n, NULL);
}

/* Until tid sleeps in the kernel: /proc/tasks says S, or (without
 * /proc) after a tenth of a second in which it had nothing else to do. */
static bool asleep(long tid)
{
	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0) {
		thr_sleep_ms(100);
		return true;
	}
	return thr_wait_sleeping((int)tid, 20000);
}

static volatile int w, w2;

TEST(eagain_on_mismatch)
{
	w = 5;
	EXPECT_EQ(fwait(&w, 4, NULL), -EAGAIN);
	EXPECT_EQ(fwait(&w, 6, NULL), -EAGAIN);
	EXPECT_EQ(fwait(&w, -5, NULL), -EAGAIN);
}

TEST(etimedout_after_at_least_the_timeout)
{
	struct timespec ts = { 0, 50000000 }, zero = { 0, 0 };

	w = 0;
	long long t0 = thr_now_ns();
	EXPECT_EQ(fwait(&w, 0, &ts), -ETIMEDOUT);
	long long ns = thr_now_ns() - t0;
	EXPECT(ns >= 50000000, "returned after %lld ns, before the 50 ms timeout", ns);
	EXPECT(ns < 20000000000ll, "a 50 ms timeout took %lld ns", ns);
	t0 = thr_now_ns();
	struct timespec sub = { 0, 120000000 };
	EXPECT_EQ(fwait(&w, 0, &sub), -ETIMEDOUT);
	ns = thr_now_ns() - t0;
	EXPECT(ns >= 120000000, "returned after %lld ns, before the 120 ms timeout", ns);
	EXPECT_EQ(fwait(&w, 0, &zero), -ETIMEDOUT);
}

TEST(bad_timeout)
{
	const long nsecs[] = { 1000000000, -1, 0x7fffffff, (long)0x80000000 };

	w = 0;
	for (unsigned i = 0; i < sizeof(nsecs) / sizeof(nsecs[0]); i++) {
		struct timespec ts = { 0, nsecs[i] };
		long r = fwait(&w, 0, &ts);
		EXPECT(r == -EINVAL, "tv_nsec %ld: %ld, want -EINVAL", nsecs[i], r);
	}
	EXPECT_EQ(fwait(&w, 0, (struct timespec *)USER_TOP), -EFAULT);
	EXPECT_EQ(fwait(&w, 0, (struct timespec *)4), -EFAULT);
}

TEST(unaligned_einval)
{
	for (int off = 1; off < 4; off++) {
		volatile int *u = (volatile int *)((char *)&w + off);
		EXPECT_EQ(fwait(u, 0, NULL), -EINVAL);
		EXPECT_EQ(fwake(u, 1), -EINVAL);
	}
}

TEST(unmapped_efault)
{
	char *page = thr_map(PAGE_SIZE);
	volatile int *bad[] = { NULL, (volatile int *)USER_TOP, (volatile int *)0xfffffffc,
				(volatile int *)page };

	EXPECT(page, "mmap failed");
	EXPECT_EQ(raw_munmap(page, PAGE_SIZE), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = fwait(bad[i], 0, NULL);
		EXPECT(r == -EFAULT, "WAIT on %p: %ld, want -EFAULT", (void *)bad[i], r);
		r = fwake(bad[i], 1);
		EXPECT(r == -EFAULT, "WAKE on %p: %ld, want -EFAULT", (void *)bad[i], r);
	}
}

TEST(unknown_op_enosys)
{
	/* 2 FD, and the priority-inheritance ops 6-8 and 11-13 Spindle lacks;
	 * FUTEX_CLOCK_REALTIME (256) on anything but WAIT_BITSET */
	const int ops[] = { 2, 6, 7, 8, 11, 12, 13, 0x7f, 128 | 2, 256, 256 | 1, -1 };
	struct timespec ts = { 0, 1000000 };

	w = 0;
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		long r = raw_futex((int *)&w, ops[i], 0, &ts);
		EXPECT(r == -ENOSYS, "op %#x: %ld, want -ENOSYS", ops[i], r);
	}
}

/* ---- waking ---- */

struct waiter { volatile int *word; volatile long result; volatile int ready; int op; };

/* Waits on x->word (expected: 0) for up to 30 s: a wake-up that never
 * comes fails the case with -ETIMEDOUT instead of hanging it. */
static int waiter_fn(void *arg, const struct thr_regs *r)
{
	struct waiter *x = arg;
	struct timespec limit = { 30, 0 };

	(void)r;
	x->ready = 1;
	x->result = raw_futex((int *)x->word, x->op, 0, &limit);
	return 0;
}

TEST(private_flag_accepted)
{
	struct timespec ts = { 0, 10000000 };
	static struct waiter x;

	x = (struct waiter){ &w, 1, 0, FUTEX_WAIT | FUTEX_PRIVATE_FLAG };

	w = 1;
	EXPECT_EQ(raw_futex((int *)&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, NULL), -EAGAIN);
	EXPECT_EQ(raw_futex((int *)&w, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, &ts), -ETIMEDOUT);
	EXPECT_EQ(raw_futex((int *)&w, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL), 0);
	w = 0;
	long tid = start(0, waiter_fn, &x);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&x.ready, 1, 20000) && asleep(tid), "the waiter did not sleep");
	EXPECT_EQ(raw_futex((int *)&w, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL), 1);
	EXPECT_EQ(join(tid), EXITED(0));
	EXPECT_EQ(x.result, 0);
}

TEST(wake_returns_how_many_it_woke)
{
	static struct waiter x[3];
	long tid[3];

	w = 0;
	for (int i = 0; i < 3; i++) {
		x[i] = (struct waiter){ &w, 1, 0, FUTEX_WAIT };
		tid[i] = start(i, waiter_fn, &x[i]);
		EXPECT(tid[i] > 1, "clone returned %ld", tid[i]);
	}
	for (int i = 0; i < 3; i++)
		EXPECT(thr_wait_word(&x[i].ready, 1, 20000) && asleep(tid[i]),
		       "waiter %d did not sleep", i);
	EXPECT_EQ(fwake(&w2, 3), 0);            /* another word: nobody */
	/* Up to val (abi.md section 6): 0 wakes nobody, which is the seed
	 * contract's, not Linux's (lx_futex: a Linux program's 0 wakes one). */
	EXPECT_EQ(fwake(&w, 0), 0);
	EXPECT_EQ(fwake(&w, 2), 2);
	EXPECT_EQ(fwake(&w, 1), 1);
	EXPECT_EQ(fwake(&w, 1), 0);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(join(tid[i]), EXITED(0));
		EXPECT_EQ(x[i].result, 0);
	}
}

static volatile int usr1_hits;
static void on_usr1(int sig) { (void)sig; usr1_hits++; }

TEST(signal_interrupts_wait_eintr)
{
	static struct waiter x;

	x = (struct waiter){ &w, 1, 0, FUTEX_WAIT };

	usr1_hits = 0;
	w = 0;
	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	long tid = start(0, waiter_fn, &x);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&x.ready, 1, 20000) && asleep(tid), "the waiter did not sleep");
	EXPECT_EQ(raw_tgkill((int)raw_getpid(), (int)tid, SIGUSR1), 0);
	EXPECT_EQ(join(tid), EXITED(0));
	EXPECT_EQ(x.result, -EINTR);
	EXPECT_EQ(usr1_hits, 1);
	EXPECT_EQ(fwake(&w, 1), 0);             /* it left the queue */
	EXPECT_EQ(thr_signal(SIGUSR1, SIG_DFL), 0);
}

/* ---- no lost wake-ups ---- */

#define ROUNDS 10000
static volatile int turn, lost[2];

/* Takes ROUNDS turns. A 20 s wait that times out while it is already our
 * turn is a wake-up that was lost (the other side stores, then wakes us
 * at once; even a starved host does not hold it that long): both sides
 * then give up rather than hang. */
static void ping_pong(int me)
{
	struct timespec limit = { 20, 0 };

	for (int i = 0; i < ROUNDS && lost[0] + lost[1] == 0; i++) {
		while (turn != me && lost[0] + lost[1] == 0)
			if (fwait(&turn, !me, &limit) == -ETIMEDOUT && turn == me)
				lost[me]++;
		turn = !me;
		fwake(&turn, 1);
	}
}

static int pong_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	ping_pong(1);
	return 0;
}

TEST(ping_pong_10000_rounds_no_lost_wakeup)
{
	turn = 0;
	lost[0] = lost[1] = 0;
	long tid = start(0, pong_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	ping_pong(0);
	EXPECT_EQ(join(tid), EXITED(0));
	EXPECT_EQ(lost[0], 0);
	EXPECT_EQ(lost[1], 0);
	EXPECT_EQ(turn, 0);
}

/* ---- a futex mutex: Drepper, "Futexes Are Tricky", mutex 2 ---- */

static volatile int mtx;        /* 0 free, 1 locked, 2 locked with waiters */
static volatile int counter, slow_paths, stalls;

static void mutex_lock(volatile int *m)
{
	int c = __sync_val_compare_and_swap(m, 0, 1);   /* lock cmpxchg */

	if (c == 0)
		return;
	__atomic_add_fetch(&slow_paths, 1, __ATOMIC_RELAXED);
	if (c != 2)
		c = __atomic_exchange_n(m, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		/* The holder keeps it a millisecond at most: a 20 s wait is a
		 * lost wake-up (counted; the loop is correct either way). */
		struct timespec limit = { 20, 0 };
		if (raw_futex((int *)m, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 2, &limit) == -ETIMEDOUT)
			__atomic_add_fetch(&stalls, 1, __ATOMIC_RELAXED);
		c = __atomic_exchange_n(m, 2, __ATOMIC_ACQUIRE);
	}
}

static void mutex_unlock(volatile int *m)
{
	if (__atomic_fetch_sub(m, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(m, 0, __ATOMIC_RELEASE);
		raw_futex((int *)m, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL);
	}
}

static volatile int adders_go;

static int adder_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	while (!adders_go)                      /* all start together */
		raw_sched_yield();
	for (int i = 0; i < 10000 && stalls == 0; i++) {
		mutex_lock(&mtx);
		int c = counter;
		if (i % 64 == 0)
			raw_sched_yield();      /* let the others pile up on the lock */
		if (i % 1000 == 500)
			thr_sleep_ms(1);        /* ...on any number of CPUs */
		counter = c + 1;
		mutex_unlock(&mtx);
	}
	return 0;
}

TEST(futex_mutex_8_threads_x_10000_exact)
{
	long tid[NTHR];

	counter = slow_paths = stalls = mtx = adders_go = 0;
	for (int i = 0; i < NTHR; i++) {
		tid[i] = start(i, adder_fn, NULL);
		if (tid[i] <= 0)
			adders_go = 1;
		EXPECT(tid[i] > 1, "clone returned %ld", tid[i]);
	}
	adders_go = 1;
	for (int i = 0; i < NTHR; i++)
		EXPECT_EQ(join(tid[i]), EXITED(0));
	EXPECT_EQ(stalls, 0);
	EXPECT_EQ(counter, 80000);
	EXPECT_EQ(mtx, 0);
	EXPECT(slow_paths > 0, "the lock was never contended: futexes not exercised");
}

/* Every other word of the page is another futex. (1,023 words: whatever
 * the kernel hashes keys into, one of them shares the waiter's bucket.) */
static volatile int words[1024] __attribute__((aligned(4096)));

TEST(other_words_of_the_page_wake_nobody)
{
	static struct waiter x;

	x = (struct waiter){ &words[0], 1, 0, FUTEX_WAIT };
	int woke = 0;

	memset((void *)words, 0, sizeof(words));
	long tid = start(0, waiter_fn, &x);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&x.ready, 1, 20000) && asleep(tid), "the waiter did not sleep");
	for (int i = 1; i < 1024; i++)
		if (fwake(&words[i], 1) != 0)
			woke = i;
	EXPECT_EQ(fwake(&words[0], 1), woke ? 0 : 1);
	EXPECT_EQ(join(tid), EXITED(0));
	EXPECT(woke == 0, "FUTEX_WAKE on word %d woke the waiter on word 0", woke);
	EXPECT_EQ(x.result, 0);
}

/* A private page copied by fork is another futex: our WAKE must not wake
 * the child, which waits on its own copy of the word. */
TEST(cow_copy_is_another_futex)
{
	int st = -1;

	w = 0;
	long pid = raw_fork();
	if (pid == 0) {
		struct timespec ts = { 1, 0 };
		raw_exit_group(fwait(&w, 0, &ts) == -ETIMEDOUT ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT(asleep(pid), "the child did not sleep");
	EXPECT_EQ(fwake(&w, 1), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));           /* 1: it was woken by our WAKE */
}

/* A thread waits on a private word; another thread forks, so that the
 * page is shared copy-on-write with the child, and then writes the word
 * and wakes: its write moves our mapping to a copy of the page, and the
 * waiter must still be found (the key of a private word is its address
 * space and virtual address, not the frame it was on: kernel/futex.c).
 * The child sleeps meanwhile without touching the page, keeping it
 * shared, so that it is our mapping that moves. */
TEST(fork_then_write_moves_the_page_the_waiter_is_still_woken)
{
	static struct waiter x;
	int st = -1;

	x = (struct waiter){ &w, 1, 0, FUTEX_WAIT | FUTEX_PRIVATE_FLAG };
	w = 0;
	long tid = start(0, waiter_fn, &x);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&x.ready, 1, 20000) && asleep(tid), "the waiter did not sleep");
	long pid = raw_fork();
	if (pid == 0) {                         /* must not touch w's page */
		struct timespec ts = { 0, 300000000 };
		raw_exit_group(raw_nanosleep(&ts, NULL) == 0 ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	w = 1;                                  /* breaks copy-on-write here */
	long woke = fwake(&w, 1);
	if (woke != 1)
		fwake(&w, 1);                   /* or the waiter sleeps its 30 s */
	EXPECT_EQ(raw_wait4((int)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(join(tid), EXITED(0));
	EXPECT(woke == 1 && x.result == 0, "WAKE after the copy-on-write move woke %ld; "
	       "the waiter's FUTEX_WAIT returned %ld (a lost wake-up)", woke, x.result);
}

/* A MAP_SHARED page is the same futex in two processes (abi.md section 6:
 * keyed by the physical address): the parent's WAKE wakes the child. */
TEST(shared_page_is_one_futex_across_processes)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st = -1;

	EXPECT(!RAW_IS_ERR(r), "mmap2 MAP_SHARED: %ld", r);
	volatile int *word = (volatile int *)r + 5;
	long pid = raw_fork();
	if (pid == 0) {
		struct timespec ts = { 30, 0 };
		word[1] = 1;                    /* "about to wait" */
		raw_exit_group(fwait(word, 0, &ts) == 0 ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT(thr_wait_word(&word[1], 1, 20000) && asleep(pid), "the child did not sleep");
	long woke = fwake(word, 1);
	EXPECT_EQ(raw_wait4((int)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));           /* 1: it was never woken */
	EXPECT_EQ(woke, 1);
	EXPECT_EQ(raw_munmap((void *)r, PAGE_SIZE), 0);
}

/* A FUTEX_PRIVATE_FLAG futex is keyed by (address space, address)
 * (abi.md section 6, as amended): even on a MAP_SHARED page, another
 * process's WAKE - private or not - does not reach a private waiter,
 * which then times out. */
TEST(private_waiter_is_not_woken_from_another_process)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st = -1;

	EXPECT(!RAW_IS_ERR(r), "mmap2 MAP_SHARED: %ld", r);
	volatile int *word = (volatile int *)r + 7;
	long pid = raw_fork();
	if (pid == 0) {
		struct timespec ts = { 0, 500000000 };
		word[1] = 1;                    /* "about to wait" */
		r = raw_futex((int *)word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &ts);
		raw_exit_group(r == -ETIMEDOUT ? 0 : 1);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT(thr_wait_word(&word[1], 1, 20000) && asleep(pid), "the child did not sleep");
	EXPECT_EQ(raw_futex((int *)word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL), 0);
	EXPECT_EQ(raw_futex((int *)word, FUTEX_WAKE, 1, NULL), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));           /* 1: something woke it */
	EXPECT_EQ(raw_munmap((void *)r, PAGE_SIZE), 0);
}

int main(void)
{
	RUN(eagain_on_mismatch);
	RUN(etimedout_after_at_least_the_timeout);
	RUN(bad_timeout);
	RUN(unaligned_einval);
	RUN(unmapped_efault);
	RUN(unknown_op_enosys);
	RUN(private_flag_accepted);
	RUN(wake_returns_how_many_it_woke);
	RUN(signal_interrupts_wait_eintr);
	RUN(ping_pong_10000_rounds_no_lost_wakeup);
	RUN(futex_mutex_8_threads_x_10000_exact);
	RUN(other_words_of_the_page_wake_nobody);
	RUN(cow_copy_is_another_futex);
	RUN(fork_then_write_moves_the_page_the_waiter_is_still_woken);
	RUN(shared_page_is_one_futex_across_processes);
	RUN(private_waiter_is_not_woken_from_another_process);
	return t_exit_code();
}
