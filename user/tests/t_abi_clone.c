/* user/tests/t_abi_clone.c - abi.md section 4 where t_clone, t_clone_wait,
 * t_seed and t_seed_vm do not look:
 *   - "A thread without DETACHED is a child of its creator like any
 *     other: at exit it sends its exit signal, becomes a zombie and is
 *     reaped by wait4" - for CLONE_THREAD threads (t_clone_wait uses
 *     CLONE_VM processes): SIGCHLD ones by plain wait4, others only with
 *     __WCLONE/__WALL, and a thread's thread is its creator's to reap;
 *   - "%edi ctid (reserved: must be ignored)": nothing is ever written
 *     there, at the start or at the exit, whatever the flags (0x00200000,
 *     CLONE_DETACHED, is Linux's later CLONE_CHILD_CLEARTID);
 *   - CLONE_RELEASE_VM's word is zeroed "when the child releases its
 *     address space (exit or execve)": read to include an exit forced by
 *     a signal, or by another thread's exit_group;
 *   - "Children are reparented when their parent exits: to a live thread
 *     of the parent's thread group if there is one, else to pid 1"
 *     (amended 2026-12-03, Linux's find_new_reaper): a thread's child
 *     stays in the process when the thread exits, and goes to pid 1
 *     only once the whole process is gone.
 * Booted as init. */
#define T_PROG "t_abi_clone"
#include "t.h"
#include "thr.h"

#define STACK 16384
static char stk[6][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))
#define MAGIC 0x12341234

static int exit_5_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 5;
}

static volatile int sig_hits, sig_last;
static void on_sig(int sig) { sig_last = sig; sig_hits++; }

/* Waits (up to 20 s) until tid is listed as a zombie in /proc/tasks. */
static bool wait_zombie(long tid)
{
	long long end = thr_now_ns() + 20000000000ll;

	while (thr_task_state((int)tid) != 'Z')
		if (thr_now_ns() > end)
			return false;
		else
			raw_sched_yield();
	return true;
}

TEST(thread_with_sigchld_signals_becomes_a_zombie_and_plain_wait4_reaps_it)
{
	int st = -1;

	sig_hits = sig_last = 0;
	EXPECT_EQ(thr_signal(SIGCHLD, on_sig), 0);
	long tid = thr_clone(THR_THREAD_FLAGS | SIGCHLD, TOP(0), NULL, NULL, exit_5_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT(wait_zombie(tid), "thread %ld never listed as a zombie (state %c)", tid,
	       thr_task_state((int)tid) ? thr_task_state((int)tid) : '-');
	thr_wait_word(&sig_hits, 1, 10000);
	EXPECT_EQ(sig_last, SIGCHLD);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), -ECHILD);   /* not a clone child */
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(5));
	EXPECT_EQ(raw_wait4(-1, &st, WNOHANG | __WALL, NULL), -ECHILD);
	EXPECT_EQ(sig_hits, 1);
	EXPECT_EQ(thr_signal(SIGCHLD, SIG_DFL), 0);
}

TEST(thread_with_another_exit_signal_is_only_wclones_or_walls)
{
	int st = -1;

	sig_hits = sig_last = 0;
	EXPECT_EQ(thr_signal(SIGUSR1, on_sig), 0);
	long tid = thr_clone(THR_THREAD_FLAGS | SIGUSR1, TOP(0), NULL, NULL, exit_5_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT(wait_zombie(tid), "thread %ld never listed as a zombie", tid);
	thr_wait_word(&sig_hits, 1, 10000);
	EXPECT_EQ(sig_last, SIGUSR1);
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(5));
	tid = thr_clone(THR_THREAD_FLAGS | SIGUSR1, TOP(0), NULL, NULL, exit_5_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	/* The SIGUSR1 handler has no SA_RESTART: if the exit signal comes
	 * between wait4's look for a zombie and its look for a signal, it
	 * returns -EINTR (Linux too); the zombie is there for the next call. */
	long r;
	while ((r = raw_wait4(-1, &st, __WALL, NULL)) == -EINTR)
		;
	EXPECT_EQ(r, tid);
	EXPECT_EQ(thr_signal(SIGUSR1, SIG_DFL), 0);
}

/* A thread that makes a thread of its own and reaps it. */
static volatile long inner_tid, inner_reaped, inner_status;

static int outer_fn(void *arg, const struct thr_regs *r)
{
	int st = -1;

	(void)arg;
	(void)r;
	inner_tid = thr_clone(THR_THREAD_FLAGS, TOP(2), NULL, NULL, exit_5_fn, NULL);
	if (inner_tid <= 0)
		return 1;
	inner_reaped = raw_wait4((int)inner_tid, &st, __WCLONE, NULL);
	inner_status = st;
	return 0;
}

TEST(a_threads_thread_is_its_creators_child)
{
	int st = -1;

	inner_tid = inner_reaped = inner_status = -1;
	long tid = thr_clone(THR_THREAD_FLAGS, TOP(1), NULL, NULL, outer_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(inner_tid > 1, "the inner clone: %ld", inner_tid);
	EXPECT_EQ(inner_reaped, inner_tid);
	EXPECT_STATUS(inner_status, EXITED(5));
}

/* ---- ctid (%edi) ---- */

struct ctid_case { unsigned long flags; int stack; };

TEST(ctid_is_never_written)
{
	static volatile int ctid_word;
	const struct ctid_case cases[] = {
		{ CLONE_VM | SIGCHLD, 3 },
		{ CLONE_VM | CLONE_SETTID | SIGCHLD, 3 },
		{ THR_THREAD_FLAGS | CLONE_SETTID, 3 },
		{ CLONE_VM | CLONE_DETACHED | CLONE_RELEASE_VM, 3 },
		{ THR_THREAD_FLAGS | CLONE_SETTID | CLONE_DETACHED | CLONE_RELEASE_VM, 4 },
	};
	volatile int *word;
	int ptid, st;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long f = cases[i].flags;
		ctid_word = MAGIC;
		word = (volatile int *)((char *)TOP(cases[i].stack) - 4);
		*word = MAGIC;
		/* thr_clone passes its arg in %edi, ctid's register */
		long tid = thr_clone(f, TOP(cases[i].stack), &ptid, NULL, exit_5_fn,
				     (void *)&ctid_word);
		EXPECT(tid > 1, "clone(%#lx): %ld", f, tid);
		if (f & CLONE_DETACHED) {
			EXPECT(thr_wait_word(word, 0, 20000), "clone(%#lx): the thread did not exit", f);
			thr_sleep_ms(20);       /* the rest of its exit */
		} else {
			EXPECT_EQ(raw_wait4(tid, &st, __WALL, NULL), tid);
		}
		EXPECT(ctid_word == MAGIC, "clone(%#lx): the word %%edi pointed at became %#x",
		       f, ctid_word);
	}
}

/* ---- RELEASE_VM and a forced exit ---- */

static int sleep_forever_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	for (int i = 0; i < 600; i++)          /* 10 minutes: the test ends first */
		thr_sleep_ms(1000);
	return 99;
}

TEST(release_vm_word_zeroed_when_a_signal_ends_the_child)
{
	volatile int *word = (volatile int *)((char *)TOP(5) - 4);
	int st = -1;

	*word = MAGIC;
	long tid = thr_clone(CLONE_VM | CLONE_RELEASE_VM | SIGCHLD, TOP(5), NULL, NULL,
			     sleep_forever_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT(thr_wait_sleeping((int)tid, 20000), "the child never slept");
	EXPECT_EQ(*word, MAGIC);
	EXPECT_EQ(raw_kill((int)tid, SIGKILL), 0);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, KILLED(SIGKILL));
	EXPECT(*word == 0, "the word at newsp-4 is %#x after SIGKILL ended the child", *word);
}

/* A process whose second thread (RELEASE_VM, its stack in a page shared
 * with us) sleeps while the first calls exit_group. */
static int group_exit_with_a_release_vm_thread(long page)
{
	char *top = (char *)page + PAGE_SIZE;
	long tid = thr_clone(THR_THREAD_FLAGS | CLONE_RELEASE_VM, top, NULL, NULL,
			     sleep_forever_fn, NULL);

	if (tid <= 0)
		return 90;
	if (!thr_wait_sleeping((int)tid, 20000))
		return 91;
	raw_exit_group(7);
	return 92;
}

TEST(release_vm_word_zeroed_when_exit_group_ends_the_thread)
{
	long page = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	EXPECT(!RAW_IS_ERR(page), "mmap2(MAP_SHARED): %ld", page);
	volatile int *word = (volatile int *)(page + PAGE_SIZE - 4);
	*word = MAGIC;
	EXPECT_STATUS(child_status(group_exit_with_a_release_vm_thread, page), EXITED(7));
	EXPECT(*word == 0, "the word at newsp-4 is %#x after exit_group ended the thread", *word);
	raw_munmap((void *)page, PAGE_SIZE);
}

/* ---- reparenting ---- */

struct family {
	volatile int g_pid, g_ppid_before, g_started, g_go, g_ppid_after, g_saw_1;
	volatile int p_pid;
};

/* G: notes its parent; once told to (g_go), notes it again and exits;
 * or (whole = 1) waits (up to 10 s) to see pid 1 as its parent. */
static int grandchild(struct family *f, int whole)
{
	f->g_pid = (int)raw_getpid();
	f->g_ppid_before = (int)raw_getppid();
	f->g_started = 1;
	if (!whole) {
		if (!thr_wait_word(&f->g_go, 1, 15000))
			return 2;
		f->g_ppid_after = (int)raw_getppid();
		return 0;
	}
	long long end = thr_now_ns() + 10000000000ll;
	while (raw_getppid() != 1 && thr_now_ns() < end)
		thr_sleep_ms(5);
	f->g_saw_1 = raw_getppid() == 1;
	return f->g_saw_1 ? 0 : 1;
}

static struct family *the_family;
static int whole_group;

/* A thread of P: forks G, waits until it runs, exits (SYS_exit: this
 * thread only). */
static int forking_thread_fn(void *arg, const struct thr_regs *r)
{
	(void)r;
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(grandchild(arg, whole_group));
	if (pid < 0 || !thr_wait_word(&((struct family *)arg)->g_started, 1, 15000))
		return 1;
	return 0;
}

/* P: a thread forks G and exits. whole = 0: P's main thread lives on,
 * G is now its child: P reaps it. whole = 1: P exits too, G goes to
 * pid 1. */
static int parent_process(long whole)
{
	struct family *f = the_family;
	int st = -1;
	long tid;

	whole_group = (int)whole;
	f->p_pid = (int)raw_getpid();
	tid = thr_clone(THR_THREAD_FLAGS, TOP(0), NULL, NULL, forking_thread_fn, f);
	if (tid <= 0)
		return 90;
	if (raw_wait4((int)tid, &st, __WCLONE, NULL) != tid || st != 0)
		return 91;
	if (whole)
		return 0;               /* the whole process goes now */
	f->g_go = 1;
	/* G's parent is now this (main) thread: wait4 here reaps it. */
	if (raw_wait4(f->g_pid, &st, 0, NULL) != f->g_pid)
		return 92;
	return st == 0 ? 0 : 93;
}

static struct family *family_page(void)
{
	long page = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(page))
		return NULL;
	memset((void *)page, 0, sizeof(struct family));
	return (struct family *)page;
}

TEST(a_threads_child_goes_to_a_live_thread_of_its_process)
{
	struct family *f = the_family = family_page();

	EXPECT(f, "mmap2(MAP_SHARED)");
	EXPECT_STATUS(child_status(parent_process, 0), EXITED(0));
	EXPECT(f->g_ppid_before == f->p_pid, "the grandchild's first getppid() = %d, not %d",
	       f->g_ppid_before, f->p_pid);
	EXPECT(f->g_ppid_after == f->p_pid,
	       "after its parent thread exited, the grandchild's getppid() = %d, not %d",
	       f->g_ppid_after, f->p_pid);
	raw_munmap((void *)f, PAGE_SIZE);
}

TEST(a_threads_child_goes_to_pid_1_when_the_whole_process_exits)
{
	struct family *f = the_family = family_page();
	int st = -1;

	EXPECT(f, "mmap2(MAP_SHARED)");
	EXPECT_STATUS(child_status(parent_process, 1), EXITED(0));
	long g = raw_wait4(-1, &st, 0, NULL);
	EXPECT(f->g_pid > 1 && g == f->g_pid, "wait4(-1) for the grandchild %d returned %ld",
	       f->g_pid, g);
	EXPECT(f->g_ppid_before > 1, "the grandchild's first getppid() = %d", f->g_ppid_before);
	EXPECT(f->g_saw_1, "the grandchild's getppid() stayed %d after its process exited",
	       f->g_ppid_before);
	EXPECT_STATUS(st, EXITED(0));
	raw_munmap((void *)f, PAGE_SIZE);
}

int main(void)
{
	RUN(thread_with_sigchld_signals_becomes_a_zombie_and_plain_wait4_reaps_it);
	thr_reap_leftovers();
	RUN(thread_with_another_exit_signal_is_only_wclones_or_walls);
	thr_reap_leftovers();
	RUN(a_threads_thread_is_its_creators_child);
	thr_reap_leftovers();
	RUN(ctid_is_never_written);
	thr_reap_leftovers();
	RUN(release_vm_word_zeroed_when_a_signal_ends_the_child);
	thr_reap_leftovers();
	RUN(release_vm_word_zeroed_when_exit_group_ends_the_thread);
	thr_reap_leftovers();
	RUN(a_threads_child_goes_to_a_live_thread_of_its_process);
	thr_reap_leftovers();
	RUN(a_threads_child_goes_to_pid_1_when_the_whole_process_exits);
	thr_reap_leftovers();
	return t_exit_code();
}
