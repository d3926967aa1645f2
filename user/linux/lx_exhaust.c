/* user/linux/lx_exhaust - a glibc program running the kernel out of tasks
 * and descriptors, unbounded: the program that asks gets the error
 * (fork: EAGAIN, abi.md's exhaustion rule and Linux's max_threads; open:
 * EMFILE), and nobody is killed or stopped for it - not the forker by the
 * out-of-memory killer (kernel/fork.c room_for_a_task keeps the last
 * eighth of memory for the page faults of the tasks that exist), not
 * init. Booted as init at the default 128 MiB. */
#define LX_PROG "lx_exhaust"
#include "lx.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

/* What the bomb's leader saw, in memory shared with init. */
struct bomb {
	volatile int made;
	volatile int err;
	volatile int done;
};

/* A fork bomb in a process group of its own: its leader forks until
 * fork fails, each child pausing at once; the leader records the count
 * and errno, then kills its whole group, itself last. */
TEST(fork_bomb_gets_eagain_and_nobody_is_killed)
{
	struct bomb *b = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int st;

	EXPECT(b != MAP_FAILED, "mmap: %s", strerror(errno));
	pid_t leader = fork();
	if (leader == 0) {
		setpgid(0, 0);
		for (;;) {
			pid_t c = fork();
			if (c == 0) {
				pause();
				_exit(0);
			}
			if (c < 0)
				break;
			b->made++;
		}
		b->err = errno;
		b->done = 1;
		signal(SIGTERM, SIG_IGN);
		kill(0, SIGKILL);       /* the children, then the leader */
		_exit(99);
	}
	EXPECT(leader > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(waitpid(leader, &st, 0), leader);
	printf("lx_exhaust: fork bomb: %d processes, then errno %d\n", b->made, b->err);
	EXPECT(b->done, "the bomb's leader never saw fork fail (status %#x: %s)", st,
	       WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "not a signal");
	EXPECT(b->err == EAGAIN, "fork failed with errno %d (%s), want EAGAIN",
	       b->err, strerror(b->err));
	EXPECT(b->made >= 100, "only %d processes", b->made);
	/* It killed itself with the rest; nothing else did. */
	EXPECT(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "leader status %#x", st);
	/* Every child is reaped by init's waits below: fork works again. */
	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	pid_t again = fork();
	if (again == 0)
		_exit(7);
	EXPECT(again > 0, "fork after the bomb: %s", strerror(errno));
	EXPECT_EQ(waitpid(again, &st, 0), again);
	EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 7, "status %#x", st);
}

/* A full descriptor table: EMFILE for open, pipe, dup; the process goes
 * on (it can close one and open again), and is neither stopped nor
 * signalled. */
TEST(full_descriptor_table_gets_emfile)
{
	int st;
	pid_t p = fork();

	if (p == 0) {
		int n = 0, fds[2];

		while (open("/dev/null", O_RDONLY) >= 0)
			n++;
		if (errno != EMFILE)
			_exit(10);
		if (pipe(fds) == 0 || errno != EMFILE)
			_exit(11);
		if (dup(0) >= 0 || errno != EMFILE)
			_exit(12);
		if (close(5) != 0 || dup(0) != 5)
			_exit(13);
		_exit(n >= 1000 ? 0 : 14);
	}
	EXPECT(p > 0, "fork: %s", strerror(errno));
	EXPECT_EQ(waitpid(p, &st, WUNTRACED), p);
	EXPECT(WIFEXITED(st), "status %#x: stopped or killed", st);
	EXPECT(WEXITSTATUS(st) == 0, "step %d failed", WEXITSTATUS(st));
}

int main(void)
{
	RUN(fork_bomb_gets_eagain_and_nobody_is_killed);
	RUN(full_descriptor_table_gets_emfile);
	return lx_failures ? 1 : 0;
}
