/* user/tests/t_personality.c - the two personalities side by side
 * (abi.md section 9). This program is Spindle's (no GNU ABI note): it
 * runs under the seed personality, where uname says "Spindle" and clone
 * knows only the seed's flags; the glibc program /bin/lx_sys it starts
 * runs under linux, and starts this one again (--child) in turn. */
#define T_PROG "t_personality"
#include "t.h"
#include "thr.h"

static char pers_buf[16];

/* The PERS column of our own line in /proc/tasks. */
static const char *my_personality(void)
{
	const char *s = thr_procbuf;

	if (thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf)) < 0)
		return "";
	while (*s) {
		const char *line = s;
		if ((long)thr_num(&s) == raw_gettid()) {
			const char *end = strchr(line, '\n'), *last = line;
			for (const char *p = line; p < end; p++)
				if (*p == ' ')
					last = p + 1;
			snprintf(pers_buf, sizeof(pers_buf), "%.*s", (int)(end - last), last);
			return pers_buf;
		}
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return "";
}

static bool sysname_is(const char *want)
{
	struct utsname u;

	return RAW1(SYS_uname, &u) == 0 && strcmp(u.sysname, want) == 0;
}

TEST(seed_uname_and_proc_tasks)
{
	struct utsname u;

	EXPECT_EQ(RAW1(SYS_uname, &u), 0);
	EXPECT(strcmp(u.sysname, "Spindle") == 0, "sysname %s", u.sysname);
	EXPECT(strcmp(u.release, "6.1.0-spindle") == 0, "release %s", u.release);
	EXPECT(strcmp(my_personality(), "seed") == 0, "PERS %s", my_personality());
}

/* Linux 6.1's own bits mean nothing to the seed's table: -EINVAL. */
TEST(seed_refuses_linux_only_clone_flags)
{
	static const unsigned long linux_only[] = {
		CLONE_VFORK, CLONE_PARENT, CLONE_SYSVSEM, CLONE_UNTRACED, CLONE_CHILD_SETTID,
		CLONE_IO, CLONE_NEWPID,
	};

	for (unsigned i = 0; i < sizeof(linux_only) / sizeof(linux_only[0]); i++) {
		long r = raw_clone(linux_only[i] | SIGCHLD, NULL, NULL, NULL, NULL);
		if (r == 0)
			raw_exit(0);
		EXPECT(r == -EINVAL, "flag %#lx: %ld, want -EINVAL", linux_only[i], r);
	}
}

static int run_glibc_child(long arg)
{
	char *argv[] = { "lx_sys", "--child", NULL };

	(void)arg;
	raw_execve(T_DIR "lx_sys", argv, NULL);
	return 100;
}

/* fork inherits the personality; execve of a glibc program changes it. */
TEST(glibc_program_from_here_runs_as_linux)
{
	EXPECT_STATUS(child_status(run_glibc_child, 0), EXITED(0));
}

static int forked_child(long arg)
{
	(void)arg;
	return strcmp(my_personality(), "seed") == 0 && sysname_is("Spindle") ? 0 : 1;
}

TEST(fork_inherits_seed)
{
	EXPECT_STATUS(child_status(forked_child, 0), EXITED(0));
}

int main(int argc, char **argv)
{
	/* Started by lx_sys: report our side by the exit status. */
	if (argc == 2 && strcmp(argv[1], "--child") == 0)
		return sysname_is("Spindle") && strcmp(my_personality(), "seed") == 0 ? 0 : 1;
	RUN(seed_uname_and_proc_tasks);
	RUN(seed_refuses_linux_only_clone_flags);
	RUN(glibc_program_from_here_runs_as_linux);
	RUN(fork_inherits_seed);
	return t_exit_code();
}
