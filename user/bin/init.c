/* user/bin/init.c - pid 1: runs the shell on the console and reaps.
 *
 *   init [ARG...]        (the kernel's init=/bin/init -- ARG...)
 *
 * Starts /bin/sh with init's own arguments (so `-- /etc/script` runs a
 * script) and then waits for children forever: its own, and the orphans
 * the kernel hands to pid 1 when their parent exits (abi.md section 4),
 * threads included (__WALL: an orphaned thread may have an exit signal
 * other than SIGCHLD). When the shell exits, init exits with the
 * shell's status, and the kernel powers the machine off with it
 * (abi.md section 1). It prints nothing but errors.
 *
 * The kernel monitor is not init's business: the kernel starts it
 * instead of init with the command-line word `monitor`. */
#include "stdio.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"
#include "sys/wait.h"

#define SHELL "/bin/sh"
#define MAX_ARGS 32

/* A wait status as an exit code: the shell's convention, 128 + signal. */
static int exit_code(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	char *sh_argv[MAX_ARGS + 2] = { "sh" };
	pid_t sh;

	for (int i = 1; i < argc && i <= MAX_ARGS; i++)
		sh_argv[i] = argv[i];
	sh = fork();
	if (sh < 0) {
		fprintf(stderr, "init: fork: %s\n", strerror(errno));
		return 1;
	}
	if (sh == 0) {
		execve(SHELL, sh_argv, environ);
		fprintf(stderr, "init: cannot run %s: %s\n", SHELL, strerror(errno));
		_exit(127);
	}
	for (;;) {
		int st;
		pid_t pid = wait4(-1, &st, __WALL, NULL);

		if (pid == sh)
			return exit_code(st);
		if (pid < 0 && errno != EINTR) {
			/* Cannot happen while the shell lives: it is our child. */
			fprintf(stderr, "init: wait4: %s\n", strerror(errno));
			return 1;
		}
	}
}
