/* user/tests/t_abi_values.c - the numbers abi.md spells out, written out
 * here as abi.md gives them (never through lib/abi.h or lib/errno.h,
 * which the kernel shares, so that a wrong value there fails here):
 *   section 3: the errno values (EPERM 1 aside: no Spindle call returns
 *   it), the signal numbers named (SIGKILL 9, SIGSEGV 11, SIGTERM 15,
 *   SIGCHLD 17, and SIGINT 2, SIGILL 4, SIGFPE 8 of section 7), the wait4
 *   options WNOHANG 1, __WCLONE 0x80000000, __WALL 0x40000000;
 *   section 4: every clone flag's value, each by the effect abi.md gives
 *   it. The system call numbers are t_abi_sysnr's. Booted as init. */
#define T_PROG "t_abi_values"
#include "t.h"
#include "thr.h"
#include "segs.h"

#define STACK 16384
static char stk[4][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))

#define EXITED_(c) (((c) & 0xff) << 8)

static int quick_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

/* Reaps whatever a failed case left behind (up to 1 s). */
static void reap_leftovers(void)
{
	for (int i = 0; i < 100; i++) {
		long r = raw_wait4(-1, NULL, 0x00000001 | 0x40000000, NULL);
		if (r < 0)
			return;
		if (r == 0)
			thr_sleep_ms(10);
	}
}

/* ---- errno (section 3) ---- */

static volatile int usr1_hits;
static void on_usr1(int sig) { (void)sig; usr1_hits++; }

/* A child asleep in FUTEX_WAIT, interrupted by a handled signal: exits
 * with -result. */
static int futex_eintr_child(long unused)
{
	static int word;
	struct timespec ts = { 20, 0 };

	(void)unused;
	if (thr_signal(10, on_usr1) != 0)
		return 90;
	return (int)-raw_futex(&word, 0, 0, &ts);
}

TEST(errno_values_as_linux)
{
	static int word = 1;
	struct timespec ms = { 0, 1000000 };
	struct user_desc bad = { 5, 0, 0xfffff, 1, 0, 0, 1, 0, 0 };
	static char *const argv[] = { "motd", NULL };
	int st = -1;

	EXPECT_EQ(raw_open("/no/such/file", 0), -2);                    /* ENOENT */
	EXPECT_EQ(raw_kill(0x7ffffff0, 0), -3);                         /* ESRCH */
	EXPECT_EQ(raw_execve("/etc/motd", argv, NULL), -13);            /* EACCES: no x bit */
	EXPECT_EQ(raw_chmod("/etc/motd", 0755), 0);
	EXPECT_EQ(raw_execve("/etc/motd", argv, NULL), -8);             /* ENOEXEC */
	EXPECT_EQ(raw_chmod("/etc/motd", 0644), 0);
	EXPECT_EQ(raw_close(77), -9);                                   /* EBADF */
	EXPECT_EQ(raw_wait4(-1, NULL, 0, NULL), -10);                   /* ECHILD */
	EXPECT_EQ(raw_futex(&word, 0, 0, &ms), -11);                    /* EAGAIN */
	EXPECT_EQ(raw_mmap2(NULL, 0xfffff000u, 3, 0x22, -1, 0), -12);   /* ENOMEM */
	EXPECT_EQ(raw_clock_gettime(1, opaque(0)), -14);                /* EFAULT */
	EXPECT_EQ(raw_set_thread_area(&bad), -22);                      /* EINVAL */
	EXPECT_EQ(raw_syscall0(222), -38);                              /* ENOSYS */
	EXPECT_EQ(raw_futex(&word, 0, 1, &ms), -110);                   /* ETIMEDOUT */

	/* EINTR 4: a FUTEX_WAIT cut short by a handled signal. */
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(futex_eintr_child(0));
	EXPECT(pid > 0, "fork: %ld", pid);
	bool slept = thr_wait_sleeping((int)pid, 20000);
	raw_kill((int)pid, 10);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT(slept, "the child never slept in FUTEX_WAIT");
	EXPECT_STATUS(st, EXITED_(4));
}

/* ---- signal numbers (sections 3 and 7) ---- */

static int null_read(long unused) { (void)unused; return *(volatile int *)opaque(0); }
static int do_ud2(long unused) { (void)unused; __asm__ volatile("ud2"); return 0; }
static int div_zero(long unused)
{
	unsigned q, r, d = (unsigned)unused;            /* 0: a divide error */
	__asm__ volatile("divl %2" : "=a"(q), "=d"(r) : "r"(d), "a"(1), "d"(0));
	return (int)(q + r);
}

TEST(signal_numbers_as_linux)
{
	struct k_sigaction h = { (void *)on_usr1, SA_RESTORER, (void *)__restore_rt, { 0, 0 } };

	EXPECT_STATUS(thr_killed_by(9), 9);                         /* SIGKILL */
	EXPECT_STATUS(thr_killed_by(15), 15);                       /* SIGTERM */
	EXPECT_STATUS(thr_killed_by(2), 2);                         /* SIGINT */
	EXPECT_STATUS(child_status(null_read, 0), 11);          /* SIGSEGV */
	EXPECT_STATUS(child_status(do_ud2, 0), 4);              /* SIGILL */
	EXPECT_STATUS(child_status(div_zero, 0), 8);            /* SIGFPE */
	/* SIGKILL (9) and SIGSTOP (19) cannot be caught. */
	EXPECT_EQ(raw_rt_sigaction(9, &h, NULL, 8), -22);
	EXPECT_EQ(raw_rt_sigaction(19, &h, NULL, 8), -22);
}

static volatile int chld_hits;
static void on_chld(int sig) { chld_hits = sig; }

TEST(sigchld_is_17)
{
	int st;

	/* Its handler runs when a child exits; by default it is ignored. */
	chld_hits = 0;
	EXPECT_EQ(thr_signal(17, on_chld), 0);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(0);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	thr_wait_word(&chld_hits, 17, 10000);
	EXPECT_EQ(chld_hits, 17);
	EXPECT_EQ(thr_signal(17, SIG_DFL), 0);
	EXPECT_EQ(raw_kill(1, 17), 0);                  /* ignored: we live */
	/* An exit signal of 17 makes an ordinary child: plain wait4's. */
	long tid = thr_clone(0x100 | 17, TOP(0), NULL, NULL, quick_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4(-1, &st, 0, NULL), tid);
}

/* ---- wait4 options (section 3) ---- */

TEST(wait_options_values)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		thr_spin_forever();
	EXPECT(pid > 0, "fork: %ld", pid);
	long r = raw_wait4(pid, &st, 0x00000001, NULL);         /* WNOHANG */
	raw_kill((int)pid, 9);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_EQ(r, 0);

	/* Exit signal 0: only __WCLONE or __WALL reap it. */
	long tid = thr_clone(0x100, TOP(0), NULL, NULL, quick_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), -10);
	EXPECT_EQ(raw_wait4(tid, &st, (int)0x80000000u, NULL), tid);     /* __WCLONE */
	tid = thr_clone(0x100, TOP(0), NULL, NULL, quick_fn, NULL);
	EXPECT(tid > 1, "clone: %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0x40000000, NULL), tid);          /* __WALL */
	pid = raw_fork();
	if (pid == 0)
		raw_exit_group(0);
	EXPECT_EQ(raw_wait4(-1, &st, 0x40000000, NULL), pid);           /* both kinds */
}

/* ---- clone flags (section 4) ---- */

struct seen { volatile long pid, tid; volatile int gs_word, poked; };
static struct seen seen;
static volatile int shared_word;
static volatile int tls_word[2] = { 0x5e770000, 0 };

static int look_fn(void *arg, const struct thr_regs *r)
{
	int v = 0;

	(void)r;
	seen.pid = raw_getpid();
	seen.tid = raw_gettid();
	if (arg) {
		v = gs_word_via(0x3b);
		seen.gs_word = v;
	}
	shared_word = 0x5151;
	return 0;
}

static int open_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	long fd = raw_open("/etc/motd", 0);
	return fd < 0 ? 0xff : (int)fd;
}

static int sigaction_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return thr_signal(12, on_usr1) == 0 ? 0 : 1;
}

TEST(clone_flag_values_vm_fs_files_sighand_thread)
{
	int st = -1;
	char c;

	/* CLONE_VM 0x100; the exit signal is the low byte (CSIGNAL 0xff) */
	usr1_hits = 0;
	EXPECT_EQ(thr_signal(10, on_usr1), 0);
	shared_word = 0;
	long tid = thr_clone(0x100 | 10, TOP(0), NULL, NULL, look_fn, NULL);
	EXPECT(tid > 1, "clone(0x100 | 10): %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0x40000000, NULL), tid);
	EXPECT_EQ(shared_word, 0x5151);
	thr_wait_word(&usr1_hits, 1, 10000);
	EXPECT_EQ(usr1_hits, 1);                        /* exit signal 10 came */
	EXPECT_EQ(seen.pid, tid);
	/* CLONE_FS 0x200: accepted */
	tid = thr_clone(0x200 | 17, TOP(0), NULL, NULL, quick_fn, NULL);
	EXPECT(tid > 1, "clone(0x200): %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	/* CLONE_FILES 0x400: the child's open is in our table */
	tid = thr_clone(0x400 | 17, TOP(0), NULL, NULL, open_fn, NULL);
	EXPECT(tid > 1, "clone(0x400): %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) >= 3 && WEXITSTATUS(st) < 0xff, "status %#x", st);
	EXPECT_EQ(raw_read(WEXITSTATUS(st), &c, 1), 1);
	EXPECT_EQ(raw_close(WEXITSTATUS(st)), 0);
	/* CLONE_SIGHAND 0x800 (with VM): the child's handler is ours */
	EXPECT_EQ(thr_signal(12, SIG_DFL), 0);
	tid = thr_clone(0x100 | 0x800 | 17, TOP(0), NULL, NULL, sigaction_fn, NULL);
	EXPECT(tid > 1, "clone(0x900): %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	struct k_sigaction old;
	EXPECT_EQ(raw_rt_sigaction(12, NULL, &old, 8), 0);
	EXPECT(old.handler == (void *)on_usr1, "SIGUSR2's handler %p", old.handler);
	EXPECT_EQ(thr_signal(12, SIG_DFL), 0);
	/* CLONE_THREAD 0x10000 (with SIGHAND, VM): our pid, its own tid */
	tid = thr_clone(0x100 | 0x800 | 0x10000, TOP(0), NULL, NULL, look_fn, NULL);
	EXPECT(tid > 1, "clone(0x10900): %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, (int)0x80000000u, NULL), tid);
	EXPECT_EQ(seen.pid, 1);
	EXPECT_EQ(seen.tid, tid);
	EXPECT_EQ(thr_signal(10, SIG_DFL), 0);
}

TEST(clone_flag_values_settls_settid_detached_release_vm)
{
	struct user_desc d = { 7, (unsigned)tls_word, 0xfffff, 1, 0, 0, 1, 0, 0 };
	int ptid = 0x5a5a5a5a, st = -1;
	volatile int *word = (volatile int *)((char *)TOP(1) - 4);

	/* CLONE_SETTLS 0x80000: the child's slot 7; SETTID 0x100000: *ptid */
	seen.gs_word = 0;
	long tid = thr_clone(0x100 | 0x80000 | 0x100000 | 17, TOP(0), &ptid, &d, look_fn,
			     (void *)1);
	EXPECT(tid > 1, "clone(SETTLS | SETTID): %ld", tid);
	EXPECT_EQ(ptid, tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_EQ(seen.gs_word, 0x5e770000);
	/* CLONE_DETACHED 0x200000 and CLONE_RELEASE_VM 0x400000: no zombie
	 * to wait for, the word at newsp-4 zeroed at its exit. */
	*word = 0x12341234;
	tid = thr_clone(0x100 | 0x200000 | 0x400000 | 17, TOP(1), NULL, NULL, quick_fn, NULL);
	EXPECT(tid > 1, "clone(DETACHED | RELEASE_VM): %ld", tid);
	EXPECT(thr_wait_word(word, 0, 20000), "the word at newsp-4 is still %#x", *word);
	EXPECT_EQ(raw_wait4(-1, &st, 0x40000000, NULL), -10);
	/* The next bit up is no flag. */
	EXPECT_EQ(thr_clone(0x800000 | 17, TOP(2), NULL, NULL, quick_fn, NULL), -22);
}

int main(void)
{
	RUN(errno_values_as_linux);
	reap_leftovers();
	RUN(signal_numbers_as_linux);
	reap_leftovers();
	RUN(sigchld_is_17);
	reap_leftovers();
	RUN(wait_options_values);
	reap_leftovers();
	RUN(clone_flag_values_vm_fs_files_sighand_thread);
	reap_leftovers();
	RUN(clone_flag_values_settls_settid_detached_release_vm);
	reap_leftovers();
	return t_exit_code();
}
