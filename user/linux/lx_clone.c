/* user/linux/lx_clone.c - clone(2) under the linux personality: Linux
 * 6.1's flag bits (abi.md section 9, compat/linux/clone.c), through
 * glibc's clone() wrapper and raw syscalls; and unshare(2). Booted as
 * init (pid 1). */
#define _GNU_SOURCE
#define LX_PROG "lx_clone"
#include "lx.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define STACK_SIZE (64 * 1024)

static char *new_stack(void)
{
	char *s = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return s == MAP_FAILED ? NULL : s + STACK_SIZE;
}

static volatile pid_t child_tid_word, parent_tid_word;
static volatile int child_ran;

static int note_and_exit(void *a)
{
	(void)a;
	child_ran = 1;
	return 7;
}

TEST(parent_settid_and_child_cleartid_wake)
{
	char *stack = new_stack();
	int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
		    CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	pid_t tid, w;

	EXPECT(stack, "mmap");
	child_tid_word = -1;
	tid = clone(note_and_exit, stack, flags, NULL, &parent_tid_word, NULL, &child_tid_word);
	EXPECT(tid > 0, "clone: %s", strerror(errno));
	/* PARENT_SETTID: there before clone returned. */
	EXPECT_EQ(parent_tid_word, tid);
	/* CHILD_CLEARTID: 0 and a FUTEX_WAKE when the thread is gone. */
	while ((w = child_tid_word) != 0)
		syscall(SYS_futex, &child_tid_word, FUTEX_WAIT, w, NULL, NULL, 0);
	EXPECT_EQ(child_ran, 1);
	/* A thread has no exit signal under Linux rules: nothing to wait for. */
	EXPECT_EQ(waitpid(-1, NULL, __WALL | WNOHANG), -1);
	EXPECT_EQ(errno, ECHILD);
}

static int check_ctid(void *a)
{
	(void)a;
	/* CHILD_SETTID wrote our TID in our own (copied) memory. */
	return child_tid_word == syscall(SYS_gettid) ? 0 : 1;
}

TEST(child_settid_in_the_childs_memory)
{
	char *stack = new_stack();
	int st;
	pid_t pid;

	EXPECT(stack, "mmap");
	child_tid_word = 0;
	pid = clone(check_ctid, stack, CLONE_CHILD_SETTID | SIGCHLD, NULL, NULL, NULL,
		    &child_tid_word);
	EXPECT(pid > 0, "clone: %s", strerror(errno));
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	/* Not in ours: no CLONE_VM. */
	EXPECT_EQ(child_tid_word, 0);
}

static volatile int vfork_child_done;

static int slow_child(void *a)
{
	(void)a;
	usleep(50000);
	vfork_child_done = 1;
	return 3;
}

TEST(clone_vfork_parent_waits)
{
	char *stack = new_stack();
	int st;
	pid_t pid;

	EXPECT(stack, "mmap");
	vfork_child_done = 0;
	pid = clone(slow_child, stack, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	EXPECT(pid > 0, "clone: %s", strerror(errno));
	EXPECT(vfork_child_done == 1, "clone(CLONE_VFORK) returned before the child exited");
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 3, "child status %#x", st);
}

TEST(vfork_then_exec)
{
	char *argv[] = { "lx_clone", "child-exit", "9", NULL };
	int st;
	pid_t pid = vfork();

	if (pid == 0) {
		execve("/tests/lx_clone", argv, NULL);
		_exit(127);
	}
	EXPECT(pid > 0, "vfork: %s", strerror(errno));
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 9, "child status %#x", st);
}

/* The child execs a program that blocks until we write to it: the
 * parent of a vfork must be back at the exec, not at the exit (if it
 * were not, neither side could go on and the test would time out). */
TEST(vfork_parent_resumes_at_exec_not_exit)
{
	char *argv[] = { "lx_clone", "child-read", NULL };
	int fds[2], st;
	pid_t pid;

	EXPECT_EQ(pipe(fds), 0);
	pid = vfork();
	if (pid == 0) {
		dup2(fds[0], 0);
		execve("/tests/lx_clone", argv, NULL);
		_exit(127);
	}
	EXPECT(pid > 0, "vfork: %s", strerror(errno));
	EXPECT_EQ(write(fds[1], "x", 1), 1);    /* only now can it exit */
	close(fds[0]);
	close(fds[1]);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
}

static int exec_reader(void *fd)
{
	char *argv[] = { "lx_clone", "child-read", NULL };

	dup2((int)(intptr_t)fd, 0);
	execve("/tests/lx_clone", argv, NULL);
	return 127;
}

/* CLONE_CHILD_CLEARTID: the child lets go of our address space at its
 * execve, so 0 is written to ctid and we are woken then, while the new
 * program still waits for us (abi.md section 9). */
TEST(child_cleartid_at_exec)
{
	static volatile pid_t ctid;
	char *stack = new_stack();
	int fds[2], st;
	pid_t pid;

	EXPECT(stack != NULL, "mmap");
	EXPECT_EQ(pipe(fds), 0);
	ctid = -1;
	pid = clone(exec_reader, stack, CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD,
		    (void *)(intptr_t)fds[0], NULL, NULL, &ctid);
	EXPECT(pid > 0, "clone: %s", strerror(errno));
	while (ctid != 0)
		syscall(SYS_futex, &ctid, FUTEX_WAIT, ctid, NULL, NULL, 0);
	EXPECT_EQ(write(fds[1], "x", 1), 1);
	close(fds[0]);
	close(fds[1]);
	EXPECT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
}

static int set_umask_077(void *a)
{
	(void)a;
	umask(077);
	return 0;
}

/* CLONE_FS shares the umask (and cwd) with the child; without it the
 * child's umask is its own (abi.md section 4). */
TEST(clone_fs_shares_the_umask)
{
	char *stack = new_stack();
	mode_t before = umask(022);
	int st;
	pid_t pid;

	EXPECT(stack != NULL, "mmap");
	pid = clone(set_umask_077, stack, SIGCHLD, NULL);
	EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid, "clone: %s", strerror(errno));
	EXPECT_EQ(umask(022), 022);             /* a copy: ours unchanged */
	pid = clone(set_umask_077, stack, CLONE_FS | SIGCHLD, NULL);
	EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid, "clone: %s", strerror(errno));
	EXPECT_EQ(umask(before), 077);          /* shared: the child's */
}

/* A clone(CLONE_FILES | CLONE_FS) child that unshares both, then sets
 * its umask and closes fd (a): the parent keeps both. */
static int unshare_and_change(void *a)
{
	if (unshare(CLONE_FILES | CLONE_FS) != 0)
		return 1;
	umask(077);
	return close((int)(intptr_t)a) == 0 ? 0 : 2;
}

/* The same child without unsharing: the parent sees both changes. */
static int change_shared(void *a)
{
	umask(077);
	return close((int)(intptr_t)a) == 0 ? 0 : 2;
}

/* unshare(2): the fd table and the fs context become the caller's own;
 * the thread group, handlers and address space only when nothing is
 * shared; namespaces and other bits -EINVAL (Linux 6.1 without them). */
TEST(unshare_files_and_fs)
{
	char *stack = new_stack();
	mode_t before = umask(022);
	int fd = dup(0), st = -1;
	pid_t pid;

	EXPECT(stack != NULL && fd >= 0, "mmap or dup");
	pid = clone(unshare_and_change, stack, CLONE_FILES | CLONE_FS | SIGCHLD,
		    (void *)(intptr_t)fd);
	EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid, "clone: %s", strerror(errno));
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unsharing child: status %#x", st);
	EXPECT(fcntl(fd, F_GETFD) >= 0, "the child's close reached our table");
	EXPECT_EQ(umask(022), 022);
	pid = clone(change_shared, stack, CLONE_FILES | CLONE_FS | SIGCHLD, (void *)(intptr_t)fd);
	EXPECT(pid > 0 && waitpid(pid, &st, 0) == pid, "clone: %s", strerror(errno));
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "sharing child: status %#x", st);
	EXPECT_EQ(fcntl(fd, F_GETFD), -1);      /* shared: closed for us too */
	EXPECT_EQ(umask(before), 077);

	EXPECT_EQ(unshare(0), 0);
	EXPECT_EQ(unshare(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM), 0);   /* alone: nothing */
	EXPECT_EQ(unshare(CLONE_SYSVSEM), 0);
	EXPECT_EQ(unshare(CLONE_NEWNS), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(unshare(CLONE_NEWUSER), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(unshare(SIGCHLD), -1);
	EXPECT_EQ(errno, EINVAL);
}

static void *park(void *a)
{
	(void)a;
	pause();
	return NULL;
}

TEST(unshare_of_a_shared_thread_group_is_einval)
{
	pthread_t t;

	EXPECT_EQ(pthread_create(&t, NULL, park, NULL), 0);
	EXPECT_EQ(unshare(CLONE_THREAD), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(unshare(CLONE_VM), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(unshare(CLONE_FILES), 0);     /* the table: the thread keeps the old one */
	pthread_cancel(t);
	pthread_join(t, NULL);
}

static int make_sibling(void *a)
{
	(void)a;
	return 0;
}

static int grandchild_via_clone_parent(void)
{
	char *stack = new_stack();
	pid_t pid;

	if (!stack)
		return 1;
	pid = clone(make_sibling, stack, CLONE_PARENT | SIGCHLD, NULL);
	if (pid < 0)
		return 2;
	/* Not our child: our parent's (init's). */
	return waitpid(pid, NULL, __WALL | WNOHANG) == -1 && errno == ECHILD ? 0 : 3;
}

TEST(clone_parent)
{
	char *stack = new_stack();
	int st, seen_sibling = 0;
	pid_t pid, w;

	EXPECT(stack, "mmap");
	/* init may not make siblings: it has no parent. */
	errno = 0;
	EXPECT_EQ(clone(make_sibling, stack, CLONE_PARENT | SIGCHLD, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
	pid = fork();
	if (pid == 0)
		_exit(grandchild_via_clone_parent());
	EXPECT(pid > 0, "fork");
	/* Both the child and its CLONE_PARENT sibling are ours to reap. */
	for (int i = 0; i < 2; i++) {
		w = waitpid(-1, &st, 0);
		EXPECT(w > 0, "waitpid: %s", strerror(errno));
		if (w == pid)
			EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
		else
			seen_sibling = 1;
	}
	EXPECT(seen_sibling, "the CLONE_PARENT child was not init's");
}

TEST(refused_and_ignored_flags)
{
	static const unsigned long refused[] = {
		0x00002000 /* PTRACE */, 0x00020000 /* NEWNS */, 0x02000000 /* NEWCGROUP */,
		0x04000000 /* NEWUTS */, 0x08000000 /* NEWIPC */, 0x10000000 /* NEWUSER */,
		0x20000000 /* NEWPID */, 0x40000000 /* NEWNET */, 0x00001000 /* PIDFD */,
	};
	static const unsigned long ignored[] = {
		0x00400000 /* DETACHED */, 0x00800000 /* UNTRACED */, 0x00040000 /* SYSVSEM */,
		0x80000000 /* IO */,
	};
	char *stack = new_stack();
	int st;

	EXPECT(stack, "mmap");
	for (unsigned i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		long r = syscall(SYS_clone, refused[i] | SIGCHLD, stack, NULL, NULL, NULL);
		if (r == 0)
			_exit(0);
		EXPECT(r == -1 && errno == EINVAL, "flag %#lx: %ld (%s), want EINVAL",
		       refused[i], r, strerror(errno));
	}
	for (unsigned i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
		pid_t pid = clone(make_sibling, stack, (int)(ignored[i] | SIGCHLD), NULL);
		EXPECT(pid > 0, "flag %#lx: %s", ignored[i], strerror(errno));
		EXPECT_EQ(waitpid(pid, &st, 0), pid);
	}
	/* The seed's rules still hold: a thread needs the handlers, the
	 * handlers need the address space. */
	errno = 0;
	EXPECT_EQ(syscall(SYS_clone, CLONE_THREAD | CLONE_VM, stack, NULL, NULL, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_clone, CLONE_SIGHAND, stack, NULL, NULL, NULL), -1);
	EXPECT_EQ(errno, EINVAL);
}

TEST(clone3_and_rseq_are_enosys)
{
	errno = 0;
	EXPECT_EQ(syscall(435, NULL, 0), -1);
	EXPECT_EQ(errno, ENOSYS);
	EXPECT_EQ(syscall(386, NULL, 0, 0, 0), -1);
	EXPECT_EQ(errno, ENOSYS);
}

static int tkill_got;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	tkill_got = si->si_code == SI_TKILL ? sig : -1;
}

TEST(tkill)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	EXPECT_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	EXPECT_EQ(syscall(SYS_tkill, syscall(SYS_gettid), SIGUSR1), 0);
	EXPECT_EQ(tkill_got, SIGUSR1);
	EXPECT_EQ(syscall(SYS_tkill, 0, SIGUSR1), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_tkill, 1, 99), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_tkill, 999999, 0), -1);
	EXPECT_EQ(errno, ESRCH);
}

static volatile int plain_got, plain_count;

static void plain_handler(int sig)
{
	plain_got = sig;
	plain_count++;
}

/* signal(): no SA_SIGINFO, so Linux's old frame and sigreturn (119),
 * through glibc's __restore; the mask and registers come back. */
TEST(plain_signal_handler_returns)
{
	volatile long before = 12345;
	sigset_t cur;

	EXPECT(signal(SIGUSR2, plain_handler) != SIG_ERR, "signal");
	EXPECT_EQ(raise(SIGUSR2), 0);
	EXPECT_EQ(plain_got, SIGUSR2);
	EXPECT_EQ(raise(SIGUSR2), 0);
	EXPECT_EQ(plain_count, 2);
	EXPECT_EQ(before, 12345);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	EXPECT(!sigismember(&cur, SIGUSR2), "SIGUSR2 still blocked after the handler");
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "child-exit") == 0)
		return atoi(argv[2]);
	if (argc == 2 && strcmp(argv[1], "child-read") == 0) {
		char c;
		return read(0, &c, 1) == 1 ? 0 : 1;     /* until the test writes */
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	RUN(parent_settid_and_child_cleartid_wake);
	RUN(child_settid_in_the_childs_memory);
	RUN(clone_vfork_parent_waits);
	RUN(vfork_then_exec);
	RUN(vfork_parent_resumes_at_exec_not_exit);
	RUN(child_cleartid_at_exec);
	RUN(clone_fs_shares_the_umask);
	RUN(clone_parent);
	RUN(unshare_files_and_fs);
	RUN(unshare_of_a_shared_thread_group_is_einval);
	RUN(refused_and_ignored_flags);
	RUN(clone3_and_rseq_are_enosys);
	RUN(tkill);
	RUN(plain_signal_handler_returns);
	return lx_exit_code();
}
