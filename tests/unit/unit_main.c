/* tests/unit/unit_main.c - runs the tests registered by TEST() (unit.h).
 *
 * Compiled once with the host libc and no renames, and linked into every
 * test binary. Usage: build/unit/test_desc [test-name...] */
#include "tests/unit/unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define UNIT_REASON_MAX 512

static struct unit_test *unit_first, **unit_last = &unit_first;
static int unit_fd = -1;        /* the child's end of the verdict pipe */

/* Appends, so tests run in the order they are written. */
void unit_register(struct unit_test *t)
{
	t->next = NULL;
	*unit_last = t;
	unit_last = &t->next;
}

/* The first failed check ends the test (docs/contributing.md, "Tests"):
 * its text goes to the parent and the child exits, from wherever the
 * check was, a helper function included. */
void unit_fail(const char *file, int line, const char *fmt, ...)
{
	char reason[UNIT_REASON_MAX];
	va_list ap;
	int n;

	n = snprintf(reason, sizeof(reason), "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(reason + n, sizeof(reason) - (size_t)n, fmt, ap);
	va_end(ap);
	if (write(unit_fd, reason, strlen(reason)) < 0)
		_exit(2);
	_exit(1);
}

bool unit_str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

bool unit_mem_eq(const void *a, const void *b, size_t n)
{
	return memcmp(a, b, n) == 0;
}

/* Child side: runs the test; a failed check exits with the reason
 * written to fd (unit_fail), so getting to the end is a pass. */
static void unit_child(struct unit_test *t, int fd)
{
	unit_fd = fd;
	t->fn();
	_exit(0);
}

/* Runs one test in a child; fills reason and returns false on failure. */
static bool unit_run(struct unit_test *t, char *reason, size_t size)
{
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		snprintf(reason, size, "cannot fork");
		return false;
	}
	if (pid == 0) {
		close(fds[0]);
		unit_child(t, fds[1]);
	}
	close(fds[1]);
	while ((n = read(fds[0], reason + got, size - 1 - (size_t)got)) > 0)
		got += n;
	reason[got] = '\0';
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0) {
		snprintf(reason, size, "waitpid failed");
		return false;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (got)
		return false;
	if (WIFSIGNALED(status))
		snprintf(reason, size, "crashed with signal %d",
			 WTERMSIG(status));
	else
		snprintf(reason, size, "exited with status %d without a "
			 "verdict (sanitizer report on stderr?)",
			 WEXITSTATUS(status));
	return false;
}

/* The report is one line per test: control characters become '?'. */
static void unit_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static bool unit_selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	const char *binary = strrchr(argv[0], '/');
	char reason[UNIT_REASON_MAX];
	int ran = 0, failed = 0;

	binary = binary ? binary + 1 : argv[0];
	for (struct unit_test *t = unit_first; t; t = t->next) {
		if (!unit_selected(t->name, argc, argv))
			continue;
		ran++;
		if (unit_run(t, reason, sizeof(reason))) {
			printf("PASS unit/%s.%s\n", binary, t->name);
		} else {
			unit_one_line(reason);
			printf("FAIL unit/%s.%s: %s\n", binary, t->name, reason);
			failed++;
		}
	}
	if (ran == 0) {
		fprintf(stderr, "%s: no test matched\n", binary);
		return 1;
	}
	return failed ? 1 : 0;
}
