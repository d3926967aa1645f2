/* user/tests/t_seed_vm.c - the seed's CLONE_DETACHED (clone-detached-A1)
 * and CLONE_RELEASE_VM (user-vm-unlock-A2) with erratum 7, as abi.md
 * section 4 states them: no exit signal and never a zombie, wait4 never
 * blocks on detached children, and the word at newsp-4 set aside and
 * zeroed when the child releases its address space, by exit or by
 * execve. The rest of the seed is t_seed's. Booted as init. */
#define T_PROG "t_seed_vm"
#include "t.h"
#include "thr.h"

#define STACK 16384
/* A stack per case: a thread a failed case leaves behind cannot step on
 * the next case's. */
static char stk[7][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))
#define MAGIC 0x12341234

static long ntasks(void)
{
	struct thr_kstat k;
	long r = thr_kstat(&k);

	return r < 0 ? r : (long)k.tasks;
}

/* Waits (up to 20 s) until /proc/kstat counts n tasks again: a self-reaping
 * task is unhashed late in its exit. Returns the last count seen. */
static long settle_tasks(long n)
{
	long t = ntasks();

	for (long long end = thr_now_ns() + 20000000000ll; t != n && thr_now_ns() < end; t = ntasks())
		raw_sched_yield();
	return t;
}

/* ---- CLONE_DETACHED ---- */

static volatile int usr1_hits, chld_hits, usr2_hits;
static void on_usr1(int sig) { (void)sig; usr1_hits++; }
static void on_chld(int sig) { (void)sig; chld_hits++; }
static void on_usr2(int sig) { (void)sig; usr2_hits++; }

TEST(detached_sends_no_exit_signal)
{
	long base = ntasks();
	volatile int *word = (volatile int *)((char *)TOP(0) - 4);

	EXPECT(base > 0, "/proc/kstat: %ld", base);
	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	EXPECT_EQ(thr_signal(SIGCHLD, on_chld), 0);
	usr1_hits = chld_hits = 0;
	const unsigned long sigs[] = { SIGUSR1, SIGCHLD };
	for (int i = 0; i < 2; i++) {
		*word = MAGIC;
		long tid = thr_clone(CLONE_VM | CLONE_DETACHED | CLONE_RELEASE_VM | sigs[i], TOP(0),
				     NULL, NULL, thr_quick_fn, NULL);
		EXPECT(tid > 1, "clone returned %ld", tid);
		EXPECT(thr_wait_word(word, 0, 20000), "RELEASE_VM word still %#x", *word);
		EXPECT_EQ(settle_tasks(base), base);    /* gone: no zombie */
	}
	/* A detached process (no CLONE_VM) too. */
	long pid = raw_clone(CLONE_DETACHED | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid == 0)
		raw_exit_group(0);
	EXPECT(pid > 1, "clone returned %ld", pid);
	EXPECT_EQ(settle_tasks(base), base);
	/* Every signal would have been sent by now, and delivered on the way
	 * back from the last system call. */
	EXPECT_EQ(usr1_hits, 0);
	EXPECT_EQ(chld_hits, 0);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	thr_signal(SIGUSR1, SIG_DFL);
	thr_signal(SIGCHLD, SIG_DFL);
}

struct sleeper { volatile int started, done; long main_tid, ms; };

/* Sleeps, then pokes the main thread with SIGUSR2: if a wait4 were (wrongly)
 * blocked for a detached child, it ends with -EINTR instead of hanging. */
static int sleeper_fn(void *arg, const struct thr_regs *r)
{
	struct sleeper *s = arg;

	(void)r;
	s->started = 1;
	thr_sleep_ms(s->ms);
	s->done = 1;
	raw_tgkill((int)raw_getpid(), (int)s->main_tid, SIGUSR2);
	return 0;
}

TEST(detached_wait4_echild_at_once_alive_or_gone)
{
	static struct sleeper s;

	s = (struct sleeper){ 0, 0, raw_gettid(), 3000 };
	volatile int *word = (volatile int *)((char *)TOP(1) - 4);
	long base = ntasks();
	int st;

	EXPECT(base > 0, "/proc/kstat: %ld", base);
	EXPECT_EQ(thr_signal(SIGUSR2, on_usr2), 0);
	*word = MAGIC;
	long tid = thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED | CLONE_RELEASE_VM | SIGCHLD,
			     TOP(1), NULL, NULL, sleeper_fn, &s);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&s.started, 1, 20000), "the detached thread did not start");

	/* Alive, asleep in nanosleep. */
	long long t0 = thr_now_ns();
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, &st, __WALL, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, &st, __WCLONE, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(tid, &st, __WALL, NULL), -ECHILD);
	long long ms = (thr_now_ns() - t0) / 1000000;
	EXPECT(s.done == 0, "wait4 returned only after the thread woke up (%lld ms)", ms);

	/* Gone. */
	EXPECT(thr_wait_word(word, 0, 20000), "RELEASE_VM word still %#x", *word);
	EXPECT_EQ(settle_tasks(base), base);
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4(-1, &st, __WALL, NULL), -ECHILD);

	/* Next to an ordinary child, wait4 returns that one. */
	*word = MAGIC;
	s.started = s.done = 0;
	s.ms = 100;
	tid = thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED | CLONE_RELEASE_VM, TOP(1), NULL, NULL,
			sleeper_fn, &s);
	EXPECT(tid > 1, "clone returned %ld", tid);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(3);
	EXPECT_EQ(raw_wait4(-1, &st, __WALL, NULL), pid);
	EXPECT_STATUS(st, EXITED(3));
	EXPECT_EQ(raw_wait4(-1, &st, __WALL, NULL), -ECHILD);
	EXPECT(thr_wait_word(word, 0, 20000), "RELEASE_VM word still %#x", *word);
	EXPECT_EQ(settle_tasks(base), base);
	thr_sleep_ms(20);                       /* its SIGUSR2 (the handler stays) */
}

/* A thread of the detached process below: it waits for the test's word,
 * in a MAP_SHARED page, then exits. */
static int wait_for_go(void *arg, const struct thr_regs *r)
{
	volatile int *go = arg;

	(void)r;
	go[1] = 1;                              /* started */
	while (!*go)
		thr_sleep_ms(5);
	return 0;
}

/* abi.md section 4: a detached task that leads a group with live threads
 * shows as a zombie in /proc/tasks until the group's last thread exits,
 * and wait4 never returns it - here with no execve, the leader simply
 * exiting first. */
TEST(detached_leader_is_a_zombie_while_its_thread_lives)
{
	long r = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long base = ntasks();
	volatile int *go;
	char state = 0;
	int st;

	EXPECT(!RAW_IS_ERR(r), "mmap2: %ld", r);
	go = (volatile int *)r;
	long pid = raw_clone(CLONE_DETACHED | SIGCHLD, NULL, NULL, NULL, NULL);
	if (pid == 0) {
		if (thr_clone(THR_THREAD_FLAGS, TOP(6), NULL, NULL, wait_for_go, (void *)go) <= 0)
			raw_exit_group(1);
		while (!go[1])
			raw_sched_yield();
		raw_exit(0);                    /* the leader alone */
	}
	EXPECT(pid > 1, "clone returned %ld", pid);
	for (int i = 0; i < 2000 && (state = thr_task_state((int)pid)) != 'Z'; i++)
		thr_sleep_ms(5);
	EXPECT(state == 'Z', "the leader's state is %c, want Z while its thread lives",
	       state ? state : '-');
	EXPECT_EQ(raw_wait4((int)pid, &st, WNOHANG | __WALL, NULL), -ECHILD);
	EXPECT_EQ(raw_wait4((int)pid, &st, WNOHANG, NULL), -ECHILD);
	/* The thread (the seed's: no exit signal of its own, so a clone
	 * child of ours, __WALL's) ends; then the whole group is gone. */
	*go = 1;
	for (int i = 0; i < 100 && raw_wait4(-1, &st, __WALL, NULL) > 0; i++)
		;
	EXPECT_EQ(settle_tasks(base), base);
	EXPECT_EQ(thr_task_state((int)pid), 0);
	EXPECT_EQ(raw_wait4((int)pid, &st, WNOHANG | __WALL, NULL), -ECHILD);
	EXPECT_EQ(raw_munmap((void *)r, 4096), 0);
}

/* ---- CLONE_RELEASE_VM ---- */

/* 0 if the child starts at newsp-4 (%ecx still holds newsp) on the
 * untouched reserved word. */
static int start_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	if (r->esp != r->ecx - 4)
		return 1;
	return *(volatile int *)r->esp == MAGIC ? 0 : 2;
}

TEST(erratum7_release_vm_word_is_newsp_minus_4)
{
	char *newsp = (char *)TOP(2) - 64;
	volatile int *word = (volatile int *)(newsp - 4), *above = (volatile int *)newsp;
	int st = -1;

	*word = MAGIC;
	*above = (int)0xcafebabe;
	long tid = thr_clone(CLONE_VM | CLONE_RELEASE_VM | SIGCHLD, newsp, NULL, NULL, start_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(word, 0, 20000), "the word at newsp-4 is still %#x", *word);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	/* exit 1: %esp was not newsp-4; exit 2: the word had changed */
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(*word, 0);
	EXPECT_EQ(*above, (int)0xcafebabe);     /* the seed's bug zeroed this one */
}

static int exec_fn(void *arg, const struct thr_regs *r)
{
	static char *const argv[] = { "t_seed_child", "sleep", NULL };

	(void)arg;
	(void)r;
	raw_execve("/tests/t_seed_child", argv, NULL);
	return 99;
}

TEST(release_vm_zeroed_by_execve_in_the_old_mm)
{
	volatile int *word = (volatile int *)((char *)TOP(3) - 4);
	int st = -1;

	*word = MAGIC;
	long tid = thr_clone(CLONE_VM | CLONE_RELEASE_VM | SIGCHLD, TOP(3), NULL, NULL, exec_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	/* The child lives on in t_seed_child (asleep); our word, in the
	 * address space it left, must be 0 now. */
	EXPECT(thr_wait_word(word, 0, 20000), "the word is still %#x after execve", *word);
	EXPECT_EQ(raw_wait4(tid, &st, WNOHANG, NULL), 0);      /* still running */
	EXPECT_EQ(raw_kill((int)tid, SIGTERM), 0);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, KILLED(SIGTERM));     /* EXITED(99): execve failed */
}

TEST(release_vm_without_vm_zeroes_the_childs_copy)
{
	volatile int *word = (volatile int *)((char *)TOP(4) - 4);
	int st = -1;

	*word = MAGIC;
	long tid = thr_clone(CLONE_RELEASE_VM | SIGCHLD, TOP(4), NULL, NULL, start_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(*word, MAGIC);
}

/* The child makes its own stack page read-only and exits with no stack
 * write in between: the kernel's zero then faults, and must be ignored. */
int ro_exit_fn(void *arg, const struct thr_regs *r);
__asm__(
	"	.text\n"
	"	.globl ro_exit_fn\n"
	"	.type ro_exit_fn, @function\n"
	"ro_exit_fn:\n"
	"	movl 4(%esp), %ebx\n"            /* arg: the page */
	"	movl $4096, %ecx\n"
	"	movl $1, %edx\n"                 /* PROT_READ */
	"	movl $" THR_STR(SYS_mprotect) ", %eax\n"
	"	int $0x80\n"
	"	movl %eax, %ebx\n"               /* exit code: mprotect's result */
	"	movl $" THR_STR(SYS_exit) ", %eax\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size ro_exit_fn, . - ro_exit_fn\n");

TEST(release_vm_fault_on_the_word_is_ignored)
{
	char *page = thr_map(PAGE_SIZE);
	int st = -1;

	EXPECT(page, "mmap failed");
	volatile int *word = (volatile int *)(page + PAGE_SIZE - 4);
	*word = MAGIC;
	long tid = thr_clone(CLONE_VM | CLONE_RELEASE_VM | SIGCHLD, page + PAGE_SIZE, NULL, NULL,
			     ro_exit_fn, page);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	/* CR0.WP (abi.md section 8): the kernel could not write it. */
	EXPECT_EQ(*word, MAGIC);
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	*word = 0;
	EXPECT_EQ(raw_munmap(page, PAGE_SIZE), 0);
}

TEST(release_vm_needs_newsp)
{
	long r = raw_clone(CLONE_RELEASE_VM | SIGCHLD, NULL, NULL, NULL, NULL);

	if (r == 0)
		raw_exit_group(0);
	EXPECT_EQ(r, -EINVAL);
	r = raw_clone(CLONE_RELEASE_VM | CLONE_DETACHED | CLONE_FILES, NULL, NULL, NULL, NULL);
	if (r == 0)
		raw_exit_group(0);
	EXPECT_EQ(r, -EINVAL);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

int main(void)
{
	RUN(detached_sends_no_exit_signal);
	thr_reap_leftovers();
	RUN(detached_wait4_echild_at_once_alive_or_gone);
	thr_reap_leftovers();
	RUN(detached_leader_is_a_zombie_while_its_thread_lives);
	thr_reap_leftovers();
	RUN(erratum7_release_vm_word_is_newsp_minus_4);
	thr_reap_leftovers();
	RUN(release_vm_zeroed_by_execve_in_the_old_mm);
	thr_reap_leftovers();
	RUN(release_vm_without_vm_zeroes_the_childs_copy);
	thr_reap_leftovers();
	RUN(release_vm_fault_on_the_word_is_ignored);
	thr_reap_leftovers();
	RUN(release_vm_needs_newsp);
	return t_exit_code();
}
