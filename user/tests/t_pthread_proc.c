/* user/tests/t_pthread_proc.c - the thread library and the process
 * (user/lib/pthread*.c, fork.c): the stack size attribute and the guard
 * page (running off a thread's stack kills the process with SIGSEGV),
 * pthread_exit from main (the process lives on until its last thread,
 * and its parent's wait4 is woken then), and fork while one thread
 * sleeps on a futex whose page the fork makes copy-on-write and another
 * takes copy-on-write faults without pause. Every child is waited for
 * with a blocking wait4 bounded by a watchdog. Booted as init. */
#define T_PROG "t_pthread_proc"
#include "t.h"
#include "thr.h"
#include "pthread.h"
#include "pthread_impl.h"      /* struct pthread's tid, atomic_load */
#include "unistd.h"

#define WAIT_BOUND_MS 20000

/* Waits for pid with a blocking wait4, as a program does, bounded by a
 * watchdog: a second child that sleeps ms, kills pid and exits. Its exit
 * wakes the parent's wait4 whatever else went wrong, so neither a child
 * that hangs nor a wait4 that is not woken when pid ends (a kernel bug
 * once: a group whose leader exited before its last thread,
 * main_exit_child) can hang the test: either shows as a wait4 that took
 * ms. The status, -ETIMEDOUT then, or -errno. (The watchdog makes only
 * raw system calls: a child forked raw from threads may use nothing
 * else.) */
static long wait_bounded(pid_t pid, long ms)
{
	long long t0 = thr_now_ns();
	int st = -1;
	long r, dog = raw_fork();

	if (dog == 0) {
		thr_sleep_ms(ms);
		raw_kill(pid, SIGKILL);
		for (;;)
			raw_exit_group(0);
	}
	if (dog < 0)
		raw_kill(pid, SIGKILL);         /* no bound: do not wait for ever */
	r = raw_wait4(pid, &st, 0, NULL);
	bool late = thr_now_ns() - t0 >= ms * 1000000ll;
	if (dog > 0) {
		raw_kill((pid_t)dog, SIGKILL);
		raw_wait4((pid_t)dog, NULL, 0, NULL);
	}
	if (dog < 0)
		return dog;
	if (r != pid)
		return r < 0 ? r : -EINVAL;
	if (late) {
		printf("wait_bounded: child %d: wait4 returned after %ld ms, status %#x "
		       "(not woken, or the child hung)\n", pid, ms, st);
		return -ETIMEDOUT;
	}
	return st;
}

/* Runs fn in a child made by libc's fork (which resets the thread
 * library in the child); its wait status. */
static long fork_status(int (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0)
		return -errno;
	return wait_bounded(pid, WAIT_BOUND_MS);
}

/* ---- stacks ---- */

static int use_stack(int depth)
{
	volatile char frame[1024];

	frame[0] = (char)depth;
	if (depth == 0)
		return frame[0];
	return use_stack(depth - 1) + frame[0];
}

static void *big_stack_user(void *arg)
{
	int depth = (int)(uintptr_t)arg;

	return (void *)(uintptr_t)use_stack(depth);
}

static void *overflow(void *arg)
{
	return (void *)(uintptr_t)use_stack(1 << 20) + (uintptr_t)arg;
}

static int guard_child(long arg)
{
	pthread_attr_t a;
	pthread_t t;

	(void)arg;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN);
	if (pthread_create(&t, &a, overflow, NULL))
		return 3;
	pthread_join(t, NULL);
	return 4;               /* the overflow did not kill us */
}

TEST(stack_size_and_guard_page)
{
	pthread_attr_t a;
	pthread_t t;
	size_t sz;
	void *r = NULL;

	EXPECT_EQ(pthread_attr_init(&a), 0);
	EXPECT_EQ(pthread_attr_getstacksize(&a, &sz), 0);
	EXPECT_EQ(sz, PTHREAD_STACK_DEFAULT);
	EXPECT_EQ(pthread_attr_setstacksize(&a, PTHREAD_STACK_MIN - 1), EINVAL);
	EXPECT_EQ(pthread_attr_setstacksize(&a, 512 * 1024), 0);
	/* 400 frames of 1 KiB: far more than the default 64 KiB. */
	EXPECT_EQ(pthread_create(&t, &a, big_stack_user, (void *)400), 0);
	EXPECT_EQ(pthread_join(t, &r), 0);
	EXPECT(r == (void *)(uintptr_t)use_stack(400), "deep recursion returned %p", r);
	/* Running off a small stack hits its guard page: SIGSEGV. */
	EXPECT_STATUS(fork_status(guard_child, 0), KILLED(SIGSEGV));
}

/* ---- the process's end ---- */

static void *sleep_then_return(void *arg)
{
	thr_sleep_ms(30);
	return arg;
}

/* main calls pthread_exit: the process lives on until its last thread
 * ends, then exits with status 0 (as on Linux). The parent's wait4 must
 * be woken then: the group's leader has long been a zombie. */
static int main_exit_child(long arg)
{
	pthread_t t;

	(void)arg;
	if (pthread_create(&t, NULL, sleep_then_return, NULL))
		return 3;
	pthread_exit(NULL);
}

/* fork from a threaded program: the child has one thread and a working
 * library. It sleeps first, so that the parent's pages stay shared
 * copy-on-write with it while the parent goes on (below). */
static int fork_child(long arg)
{
	pthread_t t;
	void *r = NULL;

	(void)arg;
	thr_sleep_ms(200);
	if (pthread_self()->tid != gettid())
		return 5;
	if (pthread_create(&t, NULL, sleep_then_return, (void *)9) || pthread_join(t, &r))
		return 6;
	return r == (void *)9 ? 0 : 7;
}

/* The threads alive at the fork. One sleeps in pthread_cond_wait
 * (FUTEX_WAIT on the condition's word) from before the fork until the
 * parent signals it just after: the signal writes the word's page while
 * the child still shares it, so the parent's mapping moves to a copy,
 * and the wake must still find the sleeper (private futexes are keyed by
 * address space and virtual address, not by the frame, kernel/futex.c).
 * The other writes to its pages without pause, so it takes copy-on-write
 * faults while its sibling is inside fork (once a deadlock of two CPUs:
 * the forking one spun with interrupts off while the faulting one waited
 * for it to answer a TLB shootdown).
 *
 * The mutex, the condition and its predicate fill a page of their own,
 * which the child never writes: so the parent's first write after the
 * fork (locking the mutex) is what moves its mapping of that page to a
 * copy, every time, whichever of parent and child runs first. */
static union {
	struct {
		pthread_mutex_t m;
		pthread_cond_t c;
		volatile int go;
	} s;
	char page[PAGE_SIZE];
} fork_sync __attribute__((aligned(PAGE_SIZE))) = {
	.s = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 },
};
static volatile int fork_asleep, fork_woken, touch_stop;

static void *sleep_on_cond(void *arg)
{
	pthread_mutex_lock(&fork_sync.s.m);
	fork_asleep = 1;
	while (!fork_sync.s.go)
		pthread_cond_wait(&fork_sync.s.c, &fork_sync.s.m);
	pthread_mutex_unlock(&fork_sync.s.m);
	fork_woken = 1;
	return arg;
}

#define TOUCH_BYTES (64 * 1024)

static void *touch_pages(void *arg)
{
	volatile char *buf = arg;
	unsigned long n = 0;

	while (!atomic_load(&touch_stop)) {
		buf[(n * PAGE_SIZE + n / 16) % TOUCH_BYTES] = (char)n;
		n++;
	}
	return (void *)n;
}

TEST(pthread_exit_in_main_then_the_parents_wait4_wakes)
{
	EXPECT_STATUS(fork_status(main_exit_child, 0), EXITED(0));
}

TEST(fork_while_a_thread_sleeps_on_a_futex_and_another_faults)
{
	pthread_t sleeper, toucher;
	void *r = NULL, *touched = NULL;
	char *buf = thr_map(TOUCH_BYTES);
	long st = -1;

	EXPECT(buf != NULL, "no memory for the toucher");
	EXPECT_EQ(pthread_create(&sleeper, NULL, sleep_on_cond, (void *)3), 0);
	EXPECT_EQ(pthread_create(&toucher, NULL, touch_pages, buf), 0);
	EXPECT(thr_wait_word(&fork_asleep, 1, 5000) && thr_wait_sleeping(sleeper->tid, 5000),
	       "the thread never went to sleep");
	pid_t pid = fork();
	if (pid == 0)
		_exit(fork_child(0));
	pthread_mutex_lock(&fork_sync.s.m);
	fork_sync.s.go = 1;
	pthread_cond_signal(&fork_sync.s.c);
	pthread_mutex_unlock(&fork_sync.s.m);
	bool woken = thr_wait_word(&fork_woken, 1, 10000);
	if (pid > 0)
		st = wait_bounded(pid, WAIT_BOUND_MS);
	atomic_store(&touch_stop, 1);
	EXPECT_EQ(pthread_join(toucher, &touched), 0);
	EXPECT(pid > 0, "fork: %s", strerror(errno));
	EXPECT(woken, "the wake-up after the fork was lost");
	EXPECT_EQ(pthread_join(sleeper, &r), 0);
	EXPECT(r == (void *)3, "the thread asleep at the fork returned %p", r);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(touched != NULL, "the toucher never ran");
	raw_munmap(buf, TOUCH_BYTES);
}

int main(void)
{
	RUN(stack_size_and_guard_page);
	RUN(pthread_exit_in_main_then_the_parents_wait4_wakes);
	RUN(fork_while_a_thread_sleeps_on_a_futex_and_another_faults);
	return t_exit_code();
}
