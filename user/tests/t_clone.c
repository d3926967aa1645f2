/* user/tests/t_clone.c - clone's flags, one by one and as pthreads combines
 * them, each checked by its observable effect (abi.md section 4): shared
 * or copied memory, fd table and signal handlers, thread-group ids, the
 * flag rules (-EINVAL), the TID in the parent and 0 in the child, newsp,
 * and the registers the child starts with. Exit signals and wait4 are
 * t_clone_wait's, the seed's own four flags t_seed's and t_seed_vm's.
 * Booted as init. */
#define T_PROG "t_clone"
#include "t.h"
#include "thr.h"
#include "segs.h"

#define STACK 16384
static char stk[4][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))

static volatile int shared;

/* ---- the TID, and where the child starts ---- */

TEST(returns_tid_in_parent_0_in_child)
{
	int st = -1;
	/* Fork-like: no CLONE_VM, newsp 0 = our own %esp in a copy of our
	 * stack. ctid (%edi) is reserved: any value is ignored. */
	long r = raw_clone(SIGCHLD, NULL, NULL, NULL, (pid_t *)0xdeadbeef);

	if (r == 0)     /* a new process: its pid is its tid; report tid & 0x7f */
		raw_exit_group(raw_gettid() == raw_getpid() ? (int)(raw_gettid() & 0x7f) : 0xff);
	EXPECT(r > 1, "clone returned %ld", r);
	EXPECT_EQ(raw_wait4(r, &st, 0, NULL), r);
	EXPECT_STATUS(st, EXITED(r & 0x7f));
}

struct ids { volatile long tid, pid, eax; };

static int ids_fn(void *arg, const struct thr_regs *r)
{
	struct ids *x = arg;

	x->tid = raw_gettid();
	x->pid = raw_getpid();
	x->eax = (long)r->eax;
	return 0;
}

TEST(vm_child_gets_0_and_its_tid_is_returned)
{
	static struct ids x;

	x = (struct ids){ -1, -1, -1 };
	int st = -1;
	long tid = thr_clone(CLONE_VM | SIGCHLD, TOP(0), NULL, NULL, ids_fn, &x);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(x.eax, 0);
	EXPECT_EQ(x.tid, tid);
	EXPECT_EQ(x.pid, tid);          /* not CLONE_THREAD: a group of its own */
}

/* The child's registers: every one as the parent had it but %eax (0) and
 * %esp (newsp). ptid and tls are ignored without SETTID / SETTLS. */
static struct thr_regs want_regs;

static int regs_fn(void *arg, const struct thr_regs *r)
{
	const unsigned long *g = (const unsigned long *)r, *w = (const unsigned long *)&want_regs;
	int bad = 0;

	(void)arg;
	for (int i = 0; i < 8; i++)
		if (g[i] != w[i])
			bad |= 1 << i;
	return bad;
}

TEST(child_starts_with_parents_registers_and_newsp)
{
	unsigned long flags = CLONE_VM | SIGCHLD;
	int *ptid = (int *)0x13572468;
	struct user_desc *tls = (struct user_desc *)0x24681357;
	int st = -1;

	want_regs = (struct thr_regs){
		.edi = 0x600dcafe, .esi = (unsigned long)tls, .ebp = (unsigned long)regs_fn,
		.esp = (unsigned long)TOP(1), .ebx = flags, .edx = (unsigned long)ptid,
		.ecx = (unsigned long)TOP(1), .eax = 0,
	};
	long tid = thr_clone(flags, TOP(1), ptid, tls, regs_fn, (void *)0x600dcafe);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	/* exit code bit i: pushal slot i differs (edi esi ebp esp ebx edx ecx eax) */
	EXPECT_STATUS(st, EXITED(0));
}

/* newsp 0: the child runs on (its copy of) the caller's stack, right where
 * thr_clone's frame is: 4 saved registers, the return address, the args. */
static int esp_fn(void *arg, const struct thr_regs *r)
{
	const unsigned long *sp = (const unsigned long *)r->esp;

	(void)arg;
	if (r->esp < 0xbf000000ul || r->esp >= USER_TOP || r->ecx != 0)
		return 1;
	return sp[5] == SIGCHLD && sp[6] == 0 && sp[9] == (unsigned long)esp_fn ? 0 : 2;
}

TEST(newsp_0_is_the_callers_esp)
{
	int st = -1;
	long tid = thr_clone(SIGCHLD, NULL, NULL, NULL, esp_fn, NULL);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
}

/* ---- CLONE_VM ---- */

static int poke_fn(void *arg, const struct thr_regs *r)
{
	volatile int *p = arg;
	int old = *p;

	(void)r;
	*p = 0x5151;
	return old == 0x2727 ? 0 : 1;
}

TEST(vm_shares_memory)
{
	int st = -1;

	shared = 0x2727;
	long tid = thr_clone(CLONE_VM | SIGCHLD, TOP(0), NULL, NULL, poke_fn, (void *)&shared);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(shared, 0x5151);
}

TEST(no_vm_copies_memory)
{
	int st = -1;

	shared = 0x2727;
	long tid = thr_clone(SIGCHLD, TOP(0), NULL, NULL, poke_fn, (void *)&shared);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));       /* it saw the copy: 0x2727 */
	EXPECT_EQ(shared, 0x2727);          /* its write stayed in its copy */
}

/* ---- CLONE_FILES (and CLONE_FS, which has nothing to share yet) ---- */

TEST(files_shared)
{
	char c;
	int st = -1;
	long r = raw_clone(SIGCHLD | CLONE_FILES, NULL, NULL, NULL, NULL);

	if (r == 0) {
		long fd = raw_open("/etc/motd", 0);
		raw_exit_group(fd < 0 ? 0xff : (int)fd);
	}
	EXPECT(r > 1, "clone returned %ld", r);
	EXPECT_EQ(raw_wait4(r, &st, 0, NULL), r);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) >= 3 && WEXITSTATUS(st) != 0xff,
	       "child: status %#x", st);
	int fd = WEXITSTATUS(st);
	EXPECT_EQ(raw_read(fd, &c, 1), 1);  /* the child's open is ours */
	EXPECT_EQ(raw_close(fd), 0);
}

TEST(files_not_shared)
{
	char c;
	int st = -1;
	long mine = raw_open("/etc/motd", 0);

	EXPECT(mine >= 3, "open: %ld", mine);
	long r = raw_clone(SIGCHLD, NULL, NULL, NULL, NULL);
	if (r == 0) {
		if (raw_close((int)mine) != 0)          /* its copy of our fd */
			raw_exit_group(0xfe);
		long fd = raw_open("/etc/motd", 0);
		raw_exit_group(fd < 0 ? 0xff : (int)fd);
	}
	EXPECT(r > 1, "clone returned %ld", r);
	EXPECT_EQ(raw_wait4(r, &st, 0, NULL), r);
	EXPECT_STATUS(st, EXITED(mine));        /* the slot it freed */
	EXPECT_EQ(raw_read((int)mine, &c, 1), 1);   /* its close left ours open */
	EXPECT_EQ(raw_close((int)mine), 0);
	EXPECT_EQ(raw_read((int)mine, &c, 1), -EBADF);
}

TEST(fs_flag_accepted)
{
	int st = -1;
	long r = raw_clone(SIGCHLD | CLONE_FS, NULL, NULL, NULL, NULL);

	if (r == 0)
		raw_exit_group(9);
	EXPECT(r > 1, "clone returned %ld", r);
	EXPECT_EQ(raw_wait4(r, &st, 0, NULL), r);
	EXPECT_STATUS(st, EXITED(9));
}

/* ---- CLONE_SIGHAND ---- */

static volatile int usr2_hits;
static void on_usr2(int sig) { (void)sig; usr2_hits++; }

static int install_usr2_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return thr_signal(SIGUSR2, on_usr2) == 0 ? 0 : 1;
}

static void *usr2_action(void)
{
	struct k_sigaction old = { (void *)0x1234, 0, 0, { 0, 0 } };

	if (raw_rt_sigaction(SIGUSR2, NULL, &old, SIGSET_SIZE) != 0)
		return (void *)-1;
	return old.handler;
}

TEST(sighand_shared)
{
	int st = -1;

	EXPECT_EQ(thr_signal(SIGUSR2, SIG_DFL), 0);
	long tid = thr_clone(CLONE_VM | CLONE_SIGHAND | SIGCHLD, TOP(0), NULL, NULL,
			     install_usr2_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(usr2_action() == (void *)on_usr2, "our SIGUSR2 action is %p, want the child's %p",
	       usr2_action(), (void *)on_usr2);
	usr2_hits = 0;
	EXPECT_EQ(raw_kill((int)raw_getpid(), SIGUSR2), 0);
	EXPECT_EQ(usr2_hits, 1);
	EXPECT_EQ(thr_signal(SIGUSR2, SIG_DFL), 0);
}

TEST(sighand_not_shared)
{
	int st = -1;

	EXPECT_EQ(thr_signal(SIGUSR2, SIG_DFL), 0);
	long tid = thr_clone(CLONE_VM | SIGCHLD, TOP(0), NULL, NULL, install_usr2_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT(usr2_action() == SIG_DFL, "our SIGUSR2 action is %p, want SIG_DFL", usr2_action());
}

/* ---- CLONE_THREAD ---- */

TEST(thread_same_pid_other_tid)
{
	static struct ids x;

	x = (struct ids){ -1, -1, -1 };
	int st = -1;
	long tid = thr_clone(THR_THREAD_FLAGS, TOP(0), NULL, NULL, ids_fn, &x);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(x.pid, raw_getpid());
	EXPECT_EQ(x.tid, tid);
	EXPECT(x.tid != raw_gettid(), "the thread has our tid %ld", x.tid);
}

/* ---- the flag rules ---- */

/* A clone that must fail. Should it create a child all the same, that
 * child runs thr_quick_fn on a stack of its own and is reaped here. */
static long clone_must_fail(unsigned long flags)
{
	long r = thr_clone(flags, TOP(3), NULL, NULL, thr_quick_fn, NULL);

	if (r > 0)
		raw_wait4(r, NULL, __WALL, NULL);
	return r;
}

TEST(thread_needs_sighand)
{
	EXPECT_EQ(clone_must_fail(CLONE_VM | CLONE_THREAD), -EINVAL);
	EXPECT_EQ(clone_must_fail(CLONE_VM | CLONE_THREAD | CLONE_FILES | SIGCHLD), -EINVAL);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

TEST(sighand_needs_vm)
{
	EXPECT_EQ(clone_must_fail(CLONE_SIGHAND | SIGCHLD), -EINVAL);
	EXPECT_EQ(clone_must_fail(CLONE_SIGHAND | CLONE_THREAD), -EINVAL);
	EXPECT_EQ(clone_must_fail(CLONE_SIGHAND | CLONE_THREAD | CLONE_FILES | CLONE_FS), -EINVAL);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

TEST(unknown_bits_einval)
{
	const unsigned long known = CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES |
		CLONE_SIGHAND | CLONE_THREAD | CLONE_SETTLS | CLONE_SETTID |
		CLONE_DETACHED | CLONE_RELEASE_VM;

	/* The brief's named ones first: a Linux flag Spindle lacks
	 * (CLONE_NEWNS), the next seed-era bit, the top bit. */
	EXPECT_EQ(clone_must_fail(SIGCHLD | 0x00020000), -EINVAL);
	EXPECT_EQ(clone_must_fail(SIGCHLD | 0x00800000), -EINVAL);
	EXPECT_EQ(clone_must_fail(SIGCHLD | 0x80000000), -EINVAL);
	for (int b = 8; b < 32; b++) {
		unsigned long bit = 1ul << b;
		if (bit & known)
			continue;
		long r = clone_must_fail(SIGCHLD | bit);
		EXPECT(r == -EINVAL, "clone(SIGCHLD | %#lx) = %ld, want -EINVAL", bit, r);
	}
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

/* ---- pthreads' combination, seed flags included ---- */

struct nptl { volatile long tid, pid, ptid_seen, gs_word; };
static volatile int tls_block[4] = { 0x7e57da7a, 0, 0, 0 };

static int nptl_fn(void *arg, const struct thr_regs *r)
{
	struct nptl *x = arg;
	int v;

	x->ptid_seen = *(volatile int *)r->edx;
	x->tid = raw_gettid();
	x->pid = raw_getpid();
	set_gs(0x33);
	v = gs_word();
	x->gs_word = v;
	return 0;
}

TEST(nptl_flags_together)
{
	static struct nptl x;

	x = (struct nptl){ -1, -1, -1, -1 };
	struct user_desc d = { 6, (unsigned int)tls_block, 0xfffff, 1, 0, 0, 1, 0, 1 };
	volatile int *word = (volatile int *)((char *)TOP(2) - 4);
	struct thr_kstat k0, k1;
	int ptid = -1;

	EXPECT_EQ(thr_kstat(&k0), 0);
	*word = 0x12341234;
	long tid = thr_clone(THR_THREAD_FLAGS | CLONE_SETTLS | CLONE_SETTID | CLONE_DETACHED |
			     CLONE_RELEASE_VM | SIGCHLD, TOP(2), &ptid, &d, nptl_fn, &x);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(ptid, tid);
	EXPECT(thr_wait_word(word, 0, 20000), "RELEASE_VM word still %#x", *word);
	EXPECT_EQ(x.ptid_seen, tid);
	EXPECT_EQ(x.tid, tid);
	EXPECT_EQ(x.pid, raw_getpid());
	EXPECT_EQ(x.gs_word, 0x7e57da7a);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	for (int i = 0; i < 200; i++) {         /* it may still be exiting */
		EXPECT_EQ(thr_kstat(&k1), 0);
		if (k1.tasks == k0.tasks)
			break;
		raw_sched_yield();
	}
	EXPECT_EQ(k1.tasks, k0.tasks);
}

int main(void)
{
	RUN(returns_tid_in_parent_0_in_child);
	RUN(vm_child_gets_0_and_its_tid_is_returned);
	RUN(child_starts_with_parents_registers_and_newsp);
	RUN(newsp_0_is_the_callers_esp);
	thr_reap_leftovers();
	RUN(vm_shares_memory);
	RUN(no_vm_copies_memory);
	RUN(files_shared);
	RUN(files_not_shared);
	RUN(fs_flag_accepted);
	thr_reap_leftovers();
	RUN(sighand_shared);
	RUN(sighand_not_shared);
	RUN(thread_same_pid_other_tid);
	thr_reap_leftovers();
	RUN(thread_needs_sighand);
	RUN(sighand_needs_vm);
	RUN(unknown_bits_einval);
	thr_reap_leftovers();
	RUN(nptl_flags_together);
	return t_exit_code();
}
